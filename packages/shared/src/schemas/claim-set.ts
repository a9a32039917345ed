import { z } from 'zod';
import { ClaimType, Description, Guid, Name } from './common.js';

export const ClaimSet = z.object({
  id: Guid,
  name: z.string(),
  description: z.string().nullable(),
  claimTypes: z.array(z.string()),
});
export type ClaimSet = z.infer<typeof ClaimSet>;

/** Body of a claim set create or update (an update finds the set by id when given, else by name). */
export const ClaimSetInput = z.object({
  id: Guid.optional(),
  name: Name,
  description: Description.nullable().optional(),
  claimTypes: z.array(ClaimType).optional(),
});
export type ClaimSetInput = z.infer<typeof ClaimSetInput>;
