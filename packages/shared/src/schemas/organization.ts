import { z } from 'zod';
import { Name } from './common.js';

export const Organization = z.object({
  name: z.string(),
  displayName: z.string().nullable(),
  /** The parent organization; null only for `Root`. */
  parentName: z.string().nullable(),
  accessOrganizationName: z.string().nullable(),
});
export type Organization = z.infer<typeof Organization>;

/** Body of an organization create or update; an absent parent means `Root`. */
export const OrganizationInput = z.object({
  name: Name,
  displayName: z.string().max(256, 'must be at most 256 characters').nullable().optional(),
  parentName: Name.nullable().optional(),
  accessOrganizationName: Name.nullable().optional(),
});
export type OrganizationInput = z.infer<typeof OrganizationInput>;
