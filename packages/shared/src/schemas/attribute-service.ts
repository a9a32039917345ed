import { z } from 'zod';
import { Description, Name } from './common.js';

/** An attribute service connection: a source of extra claims looked up at runtime. */
export const AttributeService = z.object({
  name: z.string(),
  description: z.string().nullable(),
  accessOrganizationName: z.string().nullable(),
  enabled: z.boolean(),
  /** Plugin-specific settings; secrets are left out. */
  configuration: z.record(z.string(), z.unknown()),
});
export type AttributeService = z.infer<typeof AttributeService>;

export const AttributeServiceInput = z.object({
  name: Name,
  description: Description.nullable().optional(),
  accessOrganizationName: Name.nullable().optional(),
  enabled: z.boolean().optional(),
  configuration: z.record(z.string(), z.unknown()).optional(),
});
export type AttributeServiceInput = z.infer<typeof AttributeServiceInput>;
