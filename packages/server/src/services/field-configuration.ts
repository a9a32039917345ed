import { type ConfigurableField, configurableFields, type FieldRule, type FieldRuleInput } from '@idsvc/shared';
import type { Db, DbOrTx } from '../db/client.js';
import { conflict, notFound } from '../http/api-error.js';
import { lockState, readState, stateKeys, writeState } from '../queries/system-state.js';
import { audit } from './audit.js';
import { defaultPasswordRule, type FieldRuleValues } from './field-rules.js';
import type { WriteContext } from './write-context.js';

/** The stored field configuration: the rule of each configured field, with when it was set. */
interface StoredRules {
  rules: Partial<Record<ConfigurableField, FieldRuleValues & { updatedAt: string }>>;
}

const entityType = 'fieldConfiguration';
const emptyRules: StoredRules = { rules: {} };

function storedRules(value: unknown): StoredRules {
  const rules = (value as Partial<StoredRules> | undefined)?.rules;
  return { rules: rules && typeof rules === 'object' ? rules : {} };
}

/** Every rule in force, in the order of `configurableFields`; the password always has one (default or stored). */
function rulesInForce(stored: StoredRules): FieldRule[] {
  return configurableFields.flatMap((field): FieldRule[] => {
    const rule = stored.rules[field];
    if (rule) return [{ ...rule, fieldName: field }];
    return field === 'password' ? [{ ...defaultPasswordRule, updatedAt: null }] : [];
  });
}

const fieldOf = (name: string): ConfigurableField | undefined =>
  configurableFields.find((f) => f.toLowerCase() === name.trim().toLowerCase());

/** The rule in force for a field, if it has one (the password always has). */
export async function readFieldRule(db: DbOrTx, fieldName: ConfigurableField): Promise<FieldRule | undefined> {
  const stored = storedRules((await readState(db, stateKeys.fieldConfiguration))?.value);
  return rulesInForce(stored).find((rule) => rule.fieldName === fieldName);
}

/**
 * Field validation rules (kept in system_state): the password rule always exists (at least 8 characters until
 * changed), so POST of it is a 409 and DELETE returns it to the default; other fields have a rule once created.
 */
export function fieldConfigurationService(db: Db) {
  /** Runs a change of the stored rules in a transaction that holds the row. */
  function change(
    fn: (stored: StoredRules, inForce: FieldRule[]) => { next: StoredRules; audit: Parameters<typeof audit>[1] },
  ) {
    return db.transaction(async (tx) => {
      const stored = storedRules((await lockState(tx, stateKeys.fieldConfiguration, emptyRules)).value);
      const { next, audit: entry } = fn(stored, rulesInForce(stored));
      await writeState(tx, stateKeys.fieldConfiguration, next);
      await audit(tx, entry);
      return rulesInForce(next);
    });
  }

  function withRule(stored: StoredRules, input: FieldRuleInput): StoredRules {
    const { fieldName, ...values } = input;
    return { rules: { ...stored.rules, [fieldName]: { fieldName, ...values, updatedAt: new Date().toISOString() } } };
  }

  const pick = (rules: FieldRule[], field: ConfigurableField) => rules.find((r) => r.fieldName === field) as FieldRule;

  return {
    async list(): Promise<FieldRule[]> {
      return rulesInForce(storedRules((await readState(db, stateKeys.fieldConfiguration))?.value));
    },

    async get(fieldName: string): Promise<FieldRule> {
      const field = fieldOf(fieldName);
      const rule = field && (await readFieldRule(db, field));
      if (!rule) throw notFound(`the field ${fieldName} has no validation rule`);
      return rule;
    },

    async create(input: FieldRuleInput, by: WriteContext): Promise<FieldRule> {
      const rules = await change((stored, inForce) => {
        if (inForce.some((r) => r.fieldName === input.fieldName))
          throw conflict(`the field ${input.fieldName} has a validation rule; change it with PUT`);
        return {
          next: withRule(stored, input),
          audit: { ...by, operation: 'create', entityType, entityKey: input.fieldName, changes: input },
        };
      });
      return pick(rules, input.fieldName);
    },

    async update(input: FieldRuleInput, by: WriteContext): Promise<FieldRule> {
      const rules = await change((stored, inForce) => {
        if (!inForce.some((r) => r.fieldName === input.fieldName))
          throw notFound(`the field ${input.fieldName} has no validation rule; create one with POST`);
        return {
          next: withRule(stored, input),
          audit: { ...by, operation: 'update', entityType, entityKey: input.fieldName, changes: input },
        };
      });
      return pick(rules, input.fieldName);
    },

    async delete(fieldName: string, by: WriteContext): Promise<void> {
      const field = fieldOf(fieldName);
      await change((stored, inForce) => {
        if (!field || !inForce.some((r) => r.fieldName === field))
          throw notFound(`the field ${fieldName} has no validation rule`);
        const { [field]: _removed, ...rest } = stored.rules;
        return { next: { rules: rest }, audit: { ...by, operation: 'delete', entityType, entityKey: field } };
      });
    },
  };
}

export type FieldConfigurationService = ReturnType<typeof fieldConfigurationService>;
