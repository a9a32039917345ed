import { type FieldRule, specialCharacter } from '@idsvc/shared';

/** The rule values without the bookkeeping fields. */
export type FieldRuleValues = Omit<FieldRule, 'updatedAt'>;

/** The password rule until an administrator changes it: at least 8 characters, nothing else required. */
export const defaultPasswordRule: FieldRuleValues = {
  fieldName: 'password',
  minimumLength: 8,
  maximumLength: null,
  requireUppercase: false,
  requireLowercase: false,
  requireDigit: false,
  requireSpecial: false,
  regularExpression: null,
  errorMessage: null,
};

/**
 * What is wrong with `value` under `rule`, one sentence per broken requirement (empty when it complies). Lengths
 * count characters (code points); `regularExpression` must match the whole value, and its failure is told with
 * the rule's `errorMessage` when it has one.
 */
export function fieldRuleViolations(rule: FieldRuleValues, value: string): string[] {
  const field = rule.fieldName;
  const length = [...value].length;
  const violations: string[] = [];
  if (length < rule.minimumLength) violations.push(`${field} must be at least ${rule.minimumLength} characters long`);
  if (rule.maximumLength !== null && length > rule.maximumLength)
    violations.push(`${field} must be at most ${rule.maximumLength} characters long`);
  if (rule.requireUppercase && !/\p{Lu}/u.test(value)) violations.push(`${field} must contain an upper-case letter`);
  if (rule.requireLowercase && !/\p{Ll}/u.test(value)) violations.push(`${field} must contain a lower-case letter`);
  if (rule.requireDigit && !/\p{Nd}/u.test(value)) violations.push(`${field} must contain a digit`);
  if (rule.requireSpecial && !specialCharacter.test(value))
    violations.push(`${field} must contain a special character (not a letter, digit or space)`);
  if (rule.regularExpression !== null && !new RegExp(`^(?:${rule.regularExpression})$`, 'u').test(value))
    violations.push(rule.errorMessage ?? `${field} must match the pattern ${rule.regularExpression}`);
  return violations;
}
