import { z } from 'zod';
import { IsoDateTime } from './common.js';

const maxContent = 1_048_576;

/** A customisable view content (page text or markup shown by the runtime). */
export const CustomContent = z.object({
  name: z.string(),
  content: z.string(),
  updatedAt: IsoDateTime.nullable(),
});
export type CustomContent = z.infer<typeof CustomContent>;

export const CustomContentInput = z.object({
  content: z.string().max(maxContent, 'must be at most 1 MiB'),
});
export type CustomContentInput = z.infer<typeof CustomContentInput>;
