import { z } from 'zod';
import { Description, IsoDateTime } from './common.js';

/** User fields that can carry a validation rule; `password` is checked on every password set. */
export const configurableFields = ['password', 'userName', 'displayName', 'email', 'phoneNumber'] as const;
export const ConfigurableField = z.enum(configurableFields, {
  error: `fieldName must be one of ${configurableFields.join(', ')}`,
});
export type ConfigurableField = z.infer<typeof ConfigurableField>;

/** Characters that count as special: anything but a letter, a digit or white space. */
export const specialCharacter = /[^\p{L}\p{N}\s]/u;

/** True when the pattern compiles as a JavaScript regular expression with the `u` flag. */
export function isRegularExpression(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** The validation rule of one field. */
export const FieldRule = z.object({
  fieldName: ConfigurableField,
  minimumLength: z.number().int(),
  maximumLength: z.number().int().nullable(),
  requireUppercase: z.boolean(),
  requireLowercase: z.boolean(),
  requireDigit: z.boolean(),
  /** At least one character that is not a letter, digit or space. */
  requireSpecial: z.boolean(),
  /** A JavaScript regular expression (Unicode mode) the whole value must match, e.g. `^[^\\s]+$`. */
  regularExpression: z.string().nullable(),
  /** Told to the person when the value does not match `regularExpression`. */
  errorMessage: z.string().nullable(),
  updatedAt: IsoDateTime.nullable(),
});
export type FieldRule = z.infer<typeof FieldRule>;

/** Body of POST and PUT /fieldconfiguration: absent checks are off, absent lengths unbounded. */
export const FieldRuleInput = z
  .object({
    fieldName: ConfigurableField,
    minimumLength: z.number().int().min(0).max(1024).default(0),
    maximumLength: z.number().int().min(1).max(4096).nullable().default(null),
    requireUppercase: z.boolean().default(false),
    requireLowercase: z.boolean().default(false),
    requireDigit: z.boolean().default(false),
    requireSpecial: z.boolean().default(false),
    regularExpression: z
      .string()
      .min(1, 'must not be empty')
      .max(1024, 'must be at most 1024 characters')
      .refine(isRegularExpression, { error: 'must be a valid regular expression' })
      .nullable()
      .default(null),
    errorMessage: Description.nullable().default(null),
  })
  .refine((rule) => rule.maximumLength === null || rule.maximumLength >= rule.minimumLength, {
    error: 'maximumLength must not be less than minimumLength',
    path: ['maximumLength'],
  });
export type FieldRuleInput = z.infer<typeof FieldRuleInput>;
