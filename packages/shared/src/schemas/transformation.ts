import { z } from 'zod';
import { ClaimType, Name } from './common.js';

export const transformationTypes = ['ExcludedPassThroughClaims', 'ExcludedServiceClaims', 'Script'] as const;
export const TransformationType = z.enum(transformationTypes);
export type TransformationType = z.infer<typeof TransformationType>;

const maxScript = 100_000;

/**
 * What a Script transformation's script is: it defines `function transform(claims, context)`, receives the claims
 * as a frozen array of `{ type, value }` strings and a frozen context `{ registeredUser, transformationName,
 * cultureCode }`, and returns a new array of `{ type, value }` strings. It runs in an isolated JavaScript engine
 * (no process, require, timers, network or file system) within 100 ms and 16 MiB.
 */
export const scriptContract =
  'JavaScript defining function transform(claims, context) { return claims; }: claims is a frozen array of ' +
  '{ type, value } strings, context a frozen { registeredUser, transformationName, cultureCode }; it returns a ' +
  'new array of { type, value } strings. It runs isolated (no process, require, timers, network or files) ' +
  'within 100 ms and 16 MiB.';

const Script = z.string().max(maxScript, `must be at most ${maxScript} characters`).describe(scriptContract);

/** A claim transformation. `claimTypes` is the claim-type rule list of the Excluded… types. */
export const Transformation = z.object({
  name: z.string(),
  type: TransformationType,
  accessOrganizationName: z.string().nullable(),
  conditionNotApplyToRegisteredUsers: z.boolean(),
  conditionNotApplyToUnregisteredUsers: z.boolean(),
  conditionExpression: z.string().nullable(),
  cultureCode: z.string().nullable(),
  executeBeforeLoadingClaimsFromLocalStore: z.boolean(),
  claimTypes: z.array(z.string()),
  script: z.string().nullable().describe(scriptContract),
});
export type Transformation = z.infer<typeof Transformation>;

export const TransformationInput = z.object({
  name: Name,
  type: TransformationType,
  accessOrganizationName: Name.nullable().optional(),
  conditionNotApplyToRegisteredUsers: z.boolean().optional(),
  conditionNotApplyToUnregisteredUsers: z.boolean().optional(),
  conditionExpression: z.string().max(4096, 'must be at most 4096 characters').nullable().optional(),
  cultureCode: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a culture code such as en-US')
    .max(35)
    .nullable()
    .optional(),
  executeBeforeLoadingClaimsFromLocalStore: z.boolean().optional(),
  /** The rule list of the Excluded… types: claim types that have a claim definition. */
  claimTypes: z.array(ClaimType).max(1000, 'must list at most 1000 claim types').optional(),
  /** Required for the Script type (and only for it); it must compile. */
  script: Script.nullable().optional(),
});
export type TransformationInput = z.infer<typeof TransformationInput>;

/** Body of the exclude-claim options operations: a claim type of an Excluded… transformation's rule list. */
export const ExcludeClaimOptionsInput = z.object({
  transformationName: Name,
  claimType: ClaimType,
});
export type ExcludeClaimOptionsInput = z.infer<typeof ExcludeClaimOptionsInput>;

/** Body of POST /transformations/testscript. */
export const TestScriptInput = z.object({
  script: z
    .string()
    .min(1, 'must not be empty')
    .max(maxScript, `must be at most ${maxScript} characters`)
    .describe(scriptContract),
});
export type TestScriptInput = z.infer<typeof TestScriptInput>;
