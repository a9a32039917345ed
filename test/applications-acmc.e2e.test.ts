import { describe, expect, it } from 'vitest';
import { Api, apiBase, type Json, totalCount, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, names, serverPerFile } from './helpers/fixtures.js';

const applications = `${apiBase}/applications`;
const classes = `${apiBase}/authenticationcontextmethodclass`;
const ctx = serverPerFile();

describe('Applications_GetAll', () => {
  it('lists the protocol connections as applications, by name', async () => {
    const name = unique('app');
    await created(ctx.admin, 'connections', {
      name,
      connectionType: 'Protocol',
      pluginType: 'OAuth20',
      configuration: { clientId: `${name}-client`, redirectUris: ['https://app.example.com/cb'] },
    });
    const response = await ctx.admin.get(applications);
    expect(response.status).toBe(200);
    const list = response.body as unknown as Json[];
    expect(list).toContainEqual({
      name: 'idsvc-cli',
      description: null,
      protocolConnectionName: 'idsvc-cli',
      pluginType: 'OAuth20',
      clientId: 'idsvc-cli',
      enabled: true,
    });
    expect(list).toContainEqual(expect.objectContaining({ name, clientId: `${name}-client`, pluginType: 'OAuth20' }));
    expect(names(list)).not.toContain('UsernamePassword');
    const sorted = [...names(list)].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    expect(names(list)).toEqual(sorted);
    expect(totalCount(response)).toBe(list.length);
    const descending = await ctx.admin.get(applications, { query: { sortBy: 'name', sortOrder: 'Descending' } });
    expect(names(descending.body)).toEqual([...sorted].reverse());
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).get(applications), 401, 'unauthorized');
  });
});

describe('AuthenticationContextMethodClass_Create', () => {
  it('creates a method class and answers 200 with it and its id', async () => {
    const methodClass = `urn:oasis:names:tc:SAML:2.0:ac:classes:${unique('Password')}`;
    const response = await ctx.admin.post(classes, { body: { methodClass, comparableValue: 10 } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: expect.any(String), methodClass, comparableValue: 10 });
  });

  it('keeps an id given by the caller', async () => {
    const id = crypto.randomUUID();
    const response = await ctx.admin.post(classes, { body: { id, methodClass: unique('urn:x:'), comparableValue: 1 } });
    expect(response.body).toMatchObject({ id });
  });

  it('answers 409 for a methodClass that exists in another case', async () => {
    const methodClass = unique('urn:dup:');
    await created(ctx.admin, 'authenticationcontextmethodclass', { methodClass, comparableValue: 1 });
    expectError(
      await ctx.admin.post(classes, { body: { methodClass: methodClass.toUpperCase(), comparableValue: 2 } }),
      409,
      'conflict',
    );
  });

  it('answers 400 for a missing methodClass or a comparableValue that is not an integer', async () => {
    expectError(await ctx.admin.post(classes, { body: { comparableValue: 1 } }), 400, 'invalid_request');
    expectError(
      await ctx.admin.post(classes, { body: { methodClass: 'urn:y', comparableValue: 1.5 } }),
      400,
      'invalid_request',
    );
  });
});

describe('AuthenticationContextMethodClass_GetAll', () => {
  it('lists the classes by methodClass, by comparableValue or by id', async () => {
    const prefix = unique('urn:list:');
    const made = [];
    for (const [suffix, value] of [
      ['c', 5],
      ['a', 30],
      ['b', 20],
    ] as const) {
      made.push(
        await created(ctx.admin, 'authenticationcontextmethodclass', {
          methodClass: `${prefix}${suffix}`,
          comparableValue: value,
        }),
      );
    }
    const mine = (body: unknown) =>
      (body as { methodClass: string }[]).map((c) => c.methodClass).filter((m) => m.startsWith(prefix));
    const byClass = await ctx.admin.get(classes);
    expect(byClass.status).toBe(200);
    expect(mine(byClass.body)).toEqual([`${prefix}a`, `${prefix}b`, `${prefix}c`]);
    const byValue = await ctx.admin.get(classes, { query: { sortBy: 'comparableValue', sortOrder: 'Descending' } });
    expect(mine(byValue.body)).toEqual([`${prefix}a`, `${prefix}b`, `${prefix}c`]);
    const byValueUp = await ctx.admin.get(classes, { query: { sortBy: 'comparableValue' } });
    expect(mine(byValueUp.body)).toEqual([`${prefix}c`, `${prefix}b`, `${prefix}a`]);
    const byId = await ctx.admin.get(classes, { query: { sortBy: 'id' } });
    const ids = (byId.body as unknown as Json[]).map((c) => c.id as string);
    expect(ids).toEqual([...ids].sort());
    expect(made).toHaveLength(3);
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).get(classes), 401, 'unauthorized');
  });
});
