import { describe, expect, it } from 'vitest';
import { Api, apiBase, type Json } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { serverPerFile } from './helpers/fixtures.js';

const fields = `${apiBase}/fieldconfiguration`;
const ctx = serverPerFile();

const defaultPasswordRule = {
  fieldName: 'password',
  minimumLength: 8,
  maximumLength: null,
  requireUppercase: false,
  requireLowercase: false,
  requireDigit: false,
  requireSpecial: false,
  regularExpression: null,
  errorMessage: null,
  updatedAt: null,
};

describe('FieldConfiguration_GetAll', () => {
  // First in the file: nothing was configured yet.
  it('answers 200 with the default password rule before anything is set', async () => {
    const response = await ctx.admin.get(fields);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([defaultPasswordRule]);
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).get(fields), 401, 'unauthorized');
  });
});

describe('FieldConfiguration_Get', () => {
  it('answers 200 with the rule of a field, and 404 for a field without one or an unknown field', async () => {
    const response = await ctx.admin.get(`${fields}/password`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ fieldName: 'password', minimumLength: expect.any(Number) });
    expectError(await ctx.admin.get(`${fields}/phoneNumber`), 404, 'not_found');
    expectError(await ctx.admin.get(`${fields}/shoeSize`), 404, 'not_found');
  });
});

describe('FieldConfiguration_Update', () => {
  it('replaces the password validation rule and answers 200 with it', async () => {
    const body = {
      fieldName: 'password',
      minimumLength: 12,
      maximumLength: 64,
      requireUppercase: true,
      requireDigit: true,
      regularExpression: '\\S+',
      errorMessage: 'no spaces',
    };
    const response = await ctx.admin.put(fields, { body });
    expect(response.status).toBe(200);
    const expected = {
      ...body,
      requireLowercase: false,
      requireSpecial: false,
      updatedAt: expect.any(String),
    };
    expect(response.body).toEqual(expected);
    expect((await ctx.admin.get(`${fields}/password`)).body).toEqual(expected);
  });

  it('answers 404 for a field without a rule', async () => {
    expectError(
      await ctx.admin.put(fields, { body: { fieldName: 'displayName', minimumLength: 2 } }),
      404,
      'not_found',
    );
  });

  it('answers 400 for a bad regular expression, a maximum below the minimum or an unknown field', async () => {
    const bad: Json[] = [
      { fieldName: 'password', regularExpression: '([a-z' },
      { fieldName: 'password', minimumLength: 10, maximumLength: 5 },
      { fieldName: 'shoeSize' },
      { fieldName: 'password', minimumLength: -1 },
    ];
    for (const body of bad) expectError(await ctx.admin.put(fields, { body }), 400, 'invalid_request');
  });
});

describe('FieldConfiguration_Create', () => {
  it('gives a field a rule and answers 200 with it', async () => {
    const response = await ctx.admin.post(fields, {
      body: { fieldName: 'userName', minimumLength: 3, maximumLength: 32 },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      fieldName: 'userName',
      minimumLength: 3,
      maximumLength: 32,
      requireUppercase: false,
      requireLowercase: false,
      requireDigit: false,
      requireSpecial: false,
      regularExpression: null,
      errorMessage: null,
      updatedAt: expect.any(String),
    });
    const all = await ctx.admin.get(fields);
    expect((all.body as unknown as Json[]).map((r) => r.fieldName)).toEqual(['password', 'userName']);
  });

  it('answers 409 for a field that has a rule, the password always among them', async () => {
    expectError(await ctx.admin.post(fields, { body: { fieldName: 'userName' } }), 409, 'conflict');
    expectError(await ctx.admin.post(fields, { body: { fieldName: 'password' } }), 409, 'conflict');
  });

  it('answers 400 without a fieldName', async () => {
    expectError(await ctx.admin.post(fields, { body: { minimumLength: 3 } }), 400, 'invalid_request');
  });
});

describe('FieldConfiguration_Delete', () => {
  it('removes the rule of a field, and answers 404 once it has none', async () => {
    await ctx.admin.post(fields, { body: { fieldName: 'email', maximumLength: 100 } });
    expect((await ctx.admin.delete(`${fields}/email`)).status).toBe(200);
    expectError(await ctx.admin.get(`${fields}/email`), 404, 'not_found');
    expectError(await ctx.admin.delete(`${fields}/email`), 404, 'not_found');
  });

  it('returns the password rule to the default', async () => {
    expect((await ctx.admin.delete(`${fields}/password`)).status).toBe(200);
    expect((await ctx.admin.get(`${fields}/password`)).body).toEqual(defaultPasswordRule);
  });
});
