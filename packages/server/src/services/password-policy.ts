import type { ConfigurableField } from '@idsvc/shared';
import type { DbOrTx } from '../db/client.js';
import { readFieldRule } from './field-configuration.js';
import { defaultPasswordRule, fieldRuleViolations } from './field-rules.js';

/**
 * What is wrong with a new password under the password validation rule in force (the field configuration's
 * `password` rule; by default at least 8 characters): one sentence per broken requirement, empty when it complies.
 * Every place that sets a password checks it with this.
 */
export async function checkPasswordPolicy(db: DbOrTx, password: string): Promise<string[]> {
  return fieldRuleViolations((await readFieldRule(db, 'password')) ?? defaultPasswordRule, password);
}

/** As `checkPasswordPolicy`, for any configurable field; empty when the field has no rule. */
export async function checkFieldRule(db: DbOrTx, field: ConfigurableField, value: string): Promise<string[]> {
  const rule = await readFieldRule(db, field);
  return rule ? fieldRuleViolations(rule, value) : [];
}
