import { z } from 'zod';
import { IsoDateTime } from './common.js';

/** The read-only license object. */
export const License = z.object({
  product: z.string(),
  version: z.string(),
  edition: z.string(),
  licensedTo: z.string().nullable(),
  validFrom: IsoDateTime.nullable(),
  validTo: IsoDateTime.nullable(),
  maxUsers: z.number().int().nullable(),
  features: z.array(z.string()),
});
export type License = z.infer<typeof License>;
