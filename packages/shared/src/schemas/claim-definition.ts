import { z } from 'zod';
import { ClaimType, Description, Guid, Name } from './common.js';

export const claimDefinitionKinds = ['FreeClaimDefinition', 'OptionalClaimDefinition', 'GroupClaimDefinition'] as const;
export const ClaimDefinitionKind = z.enum(claimDefinitionKinds);
export type ClaimDefinitionKind = z.infer<typeof ClaimDefinitionKind>;

export const countSpecifications = ['Single', 'Multiple'] as const;
export const CountSpecification = z.enum(countSpecifications);
export type CountSpecification = z.infer<typeof CountSpecification>;

/** A variable name: a letter or underscore, then letters, digits or underscores. */
export const VariableName = z
  .string()
  .max(256, 'must be at most 256 characters')
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must start with a letter or _ and hold only letters, digits and _');

const Value = z.string().max(1024, 'must be at most 1024 characters');

/**
 * A claim definition. `allowedValues` belongs to OptionalClaimDefinition (the values a user may hold);
 * `groupNames` to GroupClaimDefinition (the groups whose names are issued as values).
 */
export const ClaimDefinition = z.object({
  id: Guid,
  claimType: z.string(),
  kind: ClaimDefinitionKind,
  friendlyName: z.string().nullable(),
  variableName: z.string(),
  description: z.string().nullable(),
  avoidIssue: z.boolean(),
  avoidUpsize: z.boolean(),
  countSpecification: CountSpecification,
  claimValueSpace: z.string().nullable().optional(),
  showAsColumnOnUserlist: z.boolean(),
  sensitive: z.boolean(),
  userEditable: z.boolean(),
  restrictedSubOrganizationView: z.boolean(),
  allowedValues: z.array(z.string()).optional(),
  groupNames: z.array(z.string()).optional(),
});
export type ClaimDefinition = z.infer<typeof ClaimDefinition>;

/** Body of a claim definition create or (full) update; the server fills absent fields with defaults. */
export const ClaimDefinitionInput = z.object({
  id: Guid.optional(),
  claimType: ClaimType,
  kind: ClaimDefinitionKind.optional(),
  friendlyName: z.string().max(256, 'must be at most 256 characters').nullable().optional(),
  variableName: VariableName.optional(),
  description: Description.nullable().optional(),
  avoidIssue: z.boolean().optional(),
  avoidUpsize: z.boolean().optional(),
  countSpecification: CountSpecification.optional(),
  claimValueSpace: z.string().max(2048, 'must be at most 2048 characters').nullable().optional(),
  showAsColumnOnUserlist: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  userEditable: z.boolean().optional(),
  restrictedSubOrganizationView: z.boolean().optional(),
  allowedValues: z.array(Value).optional(),
  groupNames: z.array(Name).optional(),
});
export type ClaimDefinitionInput = z.infer<typeof ClaimDefinitionInput>;

export const ClaimDefinitionInputList = z.array(ClaimDefinitionInput).min(1, 'must hold at least one definition');
export type ClaimDefinitionInputList = z.infer<typeof ClaimDefinitionInputList>;
