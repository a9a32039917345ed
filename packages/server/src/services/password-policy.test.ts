import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { fieldConfigurationService } from './field-configuration.js';
import { checkFieldRule, checkPasswordPolicy } from './password-policy.js';

let ctx: TestContext;
const by = { actor: 'test' };

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const rule = (fields: Record<string, unknown> = {}) => ({
  fieldName: 'password' as const,
  minimumLength: 0,
  maximumLength: null,
  requireUppercase: false,
  requireLowercase: false,
  requireDigit: false,
  requireSpecial: false,
  regularExpression: null,
  errorMessage: null,
  ...fields,
});

describe('checkPasswordPolicy', () => {
  it('asks for at least 8 characters while no rule was set', async () => {
    expect(await checkPasswordPolicy(ctx.db, 'seven77')).toEqual(['password must be at least 8 characters long']);
    expect(await checkPasswordPolicy(ctx.db, 'eight888')).toEqual([]);
  });

  it('applies the rule set through the field configuration, and the default again once it is deleted', async () => {
    const fields = fieldConfigurationService(ctx.db);
    await fields.update(rule({ minimumLength: 12, requireDigit: true }), by);
    expect(await checkPasswordPolicy(ctx.db, 'eight888')).toEqual(['password must be at least 12 characters long']);
    expect(await checkPasswordPolicy(ctx.db, 'twelve-chars')).toEqual(['password must contain a digit']);
    await fields.delete('password', by);
    expect(await checkPasswordPolicy(ctx.db, 'eight888')).toEqual([]);
  });
});

describe('checkFieldRule', () => {
  it('finds nothing wrong with a field that has no rule, and applies one once created', async () => {
    expect(await checkFieldRule(ctx.db, 'userName', 'x')).toEqual([]);
    await fieldConfigurationService(ctx.db).create({ ...rule({ minimumLength: 3 }), fieldName: 'userName' }, by);
    expect(await checkFieldRule(ctx.db, 'userName', 'x')).toEqual(['userName must be at least 3 characters long']);
  });
});
