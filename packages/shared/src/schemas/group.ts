import { z } from 'zod';
import { Description, Name } from './common.js';

export const Group = z.object({
  name: z.string(),
  description: z.string().nullable(),
  /** The organization whose administrators may manage the group; null: any. */
  accessOrganizationName: z.string().nullable(),
});
export type Group = z.infer<typeof Group>;

export const GroupInput = z.object({
  name: Name,
  description: Description.nullable().optional(),
  accessOrganizationName: Name.nullable().optional(),
});
export type GroupInput = z.infer<typeof GroupInput>;
