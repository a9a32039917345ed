import { beforeAll, describe, expect, it } from 'vitest';
import { apiBase, type Json, roleClaimType, totalCount, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, serverPerFile, unknownGuid } from './helpers/fixtures.js';

const defs = `${apiBase}/claimdefinitions`;
const ctx = serverPerFile();
const guidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new claim definition body: a unique claim type and variable name. */
function definition(extra: Json = {}): Json & { claimType: string; variableName: string } {
  const suffix = unique('');
  return { claimType: `urn:e2e:${suffix}`, variableName: `v${suffix}`, kind: 'FreeClaimDefinition', ...extra };
}
const at = (claimTypeOrId: string) => `${defs}/${encodeURIComponent(claimTypeOrId)}`;
const claimTypes = (items: unknown) => (items as { claimType: string }[]).map((item) => item.claimType);

describe('ClaimDefinitions_Post, _GetByClaimType and _GetById', () => {
  it('creates a FreeClaimDefinition and reads it back by claimType and by id', async () => {
    const body = definition({ friendlyName: 'Shoe size', countSpecification: 'Single', sensitive: true });
    const response = await ctx.admin.post(defs, { body });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ...body, id: expect.stringMatching(guidPattern) });
    const byType = await ctx.admin.get(at(body.claimType));
    expect(byType.status).toBe(200);
    expect(byType.body).toEqual(response.body);
    const byId = await ctx.admin.get(at(String(response.body.id)));
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(response.body);
  });

  it('creates an OptionalClaimDefinition with its allowed values', async () => {
    const body = definition({ kind: 'OptionalClaimDefinition', allowedValues: ['red', 'green'] });
    const response = await ctx.admin.post(defs, { body });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject(body);
    expect((await ctx.admin.get(at(body.claimType))).body).toMatchObject(body);
  });

  it('creates a GroupClaimDefinition with its group names', async () => {
    const groupName = unique('claimgroup');
    await created(ctx.admin, 'groups', { name: groupName });
    const body = definition({ kind: 'GroupClaimDefinition', groupNames: [groupName] });
    const response = await ctx.admin.post(defs, { body });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject(body);
    expect((await ctx.admin.get(at(body.claimType))).body).toMatchObject(body);
  });

  it('serves a claim type that is an http URI through its encoded path segment', async () => {
    const body = definition({ claimType: `http://schemas.example.org/claims/${unique('shoe')}` });
    expect((await ctx.admin.post(defs, { body })).status).toBe(200);
    const response = await ctx.admin.get(at(body.claimType));
    expect(response.status).toBe(200);
    expect(response.body.claimType).toBe(body.claimType);
  });

  it('has the REST API role claim definition seeded', async () => {
    const response = await ctx.admin.get(at(roleClaimType));
    expect(response.status).toBe(200);
    expect(response.body.claimType).toBe(roleClaimType);
  });

  it('answers 409 for a duplicate claimType (any case) and for a duplicate variableName', async () => {
    const first = await created(ctx.admin, 'claimdefinitions', definition());
    const sameType = definition({ claimType: String(first.claimType).toUpperCase() });
    expectError(await ctx.admin.post(defs, { body: sameType }), 409, 'conflict');
    const sameVariable = definition({ variableName: first.variableName });
    expectError(await ctx.admin.post(defs, { body: sameVariable }), 409, 'conflict');
    expectError(await ctx.admin.get(at(sameVariable.claimType)), 404, 'not_found');
  });

  it('answers 400 for a missing claimType, an unknown kind or a malformed variable name', async () => {
    expectError(await ctx.admin.post(defs, { body: { kind: 'FreeClaimDefinition' } }), 400, 'invalid_request');
    expectError(await ctx.admin.post(defs, { body: definition({ kind: 'Bogus' }) }), 400, 'invalid_request');
    const badVariable = definition({ variableName: '1 not a name' });
    expectError(await ctx.admin.post(defs, { body: badVariable }), 400, 'invalid_request');
    expectError(await ctx.admin.get(at(badVariable.claimType)), 404, 'not_found');
  });

  it('answers 404 for an unknown claimType and for an unknown id', async () => {
    expectError(await ctx.admin.get(at(`urn:e2e:${unique('missing')}`)), 404, 'not_found');
    expectError(await ctx.admin.get(at(unknownGuid)), 404, 'not_found');
  });
});

describe('ClaimDefinitions_Put', () => {
  it('replaces the definition found by claimType and answers 200 with it', async () => {
    const body = await created(ctx.admin, 'claimdefinitions', definition({ friendlyName: 'before' }));
    const update = { claimType: body.claimType, variableName: body.variableName, friendlyName: 'after' };
    const response = await ctx.admin.put(defs, { body: update });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ...update, id: body.id });
    expect((await ctx.admin.get(at(String(body.claimType)))).body).toMatchObject(update);
  });

  it('answers 404 for an unknown claimType, 400 for an empty one, 409 for a taken variableName', async () => {
    expectError(await ctx.admin.put(defs, { body: definition() }), 404, 'not_found');
    expectError(await ctx.admin.put(defs, { body: definition({ claimType: '' }) }), 400, 'invalid_request');
    const first = await created(ctx.admin, 'claimdefinitions', definition());
    const second = await created(ctx.admin, 'claimdefinitions', definition());
    const clash = { claimType: second.claimType, variableName: first.variableName };
    expectError(await ctx.admin.put(defs, { body: clash }), 409, 'conflict');
    expect((await ctx.admin.get(at(String(second.claimType)))).body.variableName).toBe(second.variableName);
  });
});

describe('ClaimDefinitions_Patch', () => {
  it('replaces a field, reading op keys case-insensitively', async () => {
    const def = await created(ctx.admin, 'claimdefinitions', definition({ friendlyName: 'old' }));
    const path = at(String(def.claimType));
    const response = await ctx.admin.patch(path, { body: [{ op: 'replace', path: 'friendlyName', value: 'x' }] });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ claimType: def.claimType, friendlyName: 'x' });
    const shouted = await ctx.admin.patch(path, { body: [{ Op: 'Replace', Path: 'friendlyName', Value: 'y' }] });
    expect(shouted.status).toBe(200);
    expect((await ctx.admin.get(path)).body.friendlyName).toBe('y');
  });

  it('sets each field of an object value when the path is absent', async () => {
    const def = await created(ctx.admin, 'claimdefinitions', definition({ friendlyName: 'old' }));
    const path = at(String(def.claimType));
    const body = [{ op: 'replace', value: { friendlyName: 'whole', sensitive: true } }];
    const response = await ctx.admin.patch(path, { body });
    expect(response.status).toBe(200);
    expect((await ctx.admin.get(path)).body).toMatchObject({ friendlyName: 'whole', sensitive: true });
  });

  it('answers 400 for an unknown path or a wrong value type, and changes nothing', async () => {
    const def = await created(ctx.admin, 'claimdefinitions', definition({ friendlyName: 'kept' }));
    const path = at(String(def.claimType));
    const unknownPath = [
      { op: 'replace', path: 'friendlyName', value: 'changed' },
      { op: 'replace', path: 'noSuchField', value: 'x' },
    ];
    expectError(await ctx.admin.patch(path, { body: unknownPath }), 400, 'invalid_request');
    const wrongType = [{ op: 'replace', path: 'sensitive', value: 'very' }];
    expectError(await ctx.admin.patch(path, { body: wrongType }), 400, 'invalid_request');
    const badOp = [{ op: 'frobnicate', path: 'friendlyName', value: 'x' }];
    expectError(await ctx.admin.patch(path, { body: badOp }), 400, 'invalid_request');
    expect((await ctx.admin.get(path)).body).toMatchObject({ friendlyName: 'kept', sensitive: false });
  });

  it('answers 404 for an unknown claimType and 409 for a taken variableName', async () => {
    const replace = [{ op: 'replace', path: 'friendlyName', value: 'x' }];
    expectError(await ctx.admin.patch(at(`urn:e2e:${unique('missing')}`), { body: replace }), 404, 'not_found');
    const first = await created(ctx.admin, 'claimdefinitions', definition());
    const second = await created(ctx.admin, 'claimdefinitions', definition());
    const clash = [{ op: 'replace', path: 'variableName', value: first.variableName }];
    expectError(await ctx.admin.patch(at(String(second.claimType)), { body: clash }), 409, 'conflict');
  });
});

describe('ClaimDefinitions_DeleteByClaimType and _DeleteById', () => {
  it('deletes by claimType, and answers 200 again once it is gone', async () => {
    const def = await created(ctx.admin, 'claimdefinitions', definition());
    expect((await ctx.admin.delete(at(String(def.claimType)))).status).toBe(200);
    expectError(await ctx.admin.get(at(String(def.claimType))), 404, 'not_found');
    expect((await ctx.admin.delete(at(String(def.claimType)))).status).toBe(200);
  });

  it('deletes by id, and answers 200 again once it is gone', async () => {
    const def = await created(ctx.admin, 'claimdefinitions', definition());
    expect((await ctx.admin.delete(at(String(def.id)))).status).toBe(200);
    expectError(await ctx.admin.get(at(String(def.id))), 404, 'not_found');
    expectError(await ctx.admin.get(at(String(def.claimType))), 404, 'not_found');
    expect((await ctx.admin.delete(at(String(def.id)))).status).toBe(200);
  });
});

describe('ClaimDefinitions_DeleteByClaimTypes and _DeleteByIds', () => {
  it('deletes the listed claim types', async () => {
    const a = await created(ctx.admin, 'claimdefinitions', definition());
    const b = await created(ctx.admin, 'claimdefinitions', definition());
    const response = await ctx.admin.delete(`${defs}/claimtypes`, { body: [a.claimType, b.claimType] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ deleted: [a.claimType, b.claimType], failed: [] });
    expectError(await ctx.admin.get(at(String(a.claimType))), 404, 'not_found');
    expectError(await ctx.admin.get(at(String(b.claimType))), 404, 'not_found');
  });

  it('deletes the listed ids', async () => {
    const a = await created(ctx.admin, 'claimdefinitions', definition());
    const b = await created(ctx.admin, 'claimdefinitions', definition());
    const response = await ctx.admin.delete(`${defs}/ids`, { body: [a.id, b.id] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ deleted: [a.id, b.id], failed: [] });
    expectError(await ctx.admin.get(at(String(a.id))), 404, 'not_found');
    expectError(await ctx.admin.get(at(String(b.id))), 404, 'not_found');
  });
});

describe('ClaimDefinitions_PostMany and _PutMany', () => {
  it('creates the new definitions, reports the duplicate, and answers 200', async () => {
    const existing = await created(ctx.admin, 'claimdefinitions', definition());
    const fresh = definition({ friendlyName: 'fresh' });
    const duplicate = definition({ claimType: existing.claimType });
    const response = await ctx.admin.post(`${defs}/many`, { body: [fresh, duplicate] });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      items: [fresh],
      failed: [{ index: 1, id: existing.claimType, error: 'conflict', message: expect.any(String) }],
    });
    expect((await ctx.admin.get(at(fresh.claimType))).body).toMatchObject(fresh);
  });

  it('answers 400 when none was created', async () => {
    const existing = await created(ctx.admin, 'claimdefinitions', definition());
    const body = [definition({ claimType: existing.claimType })];
    expectError(await ctx.admin.post(`${defs}/many`, { body }), 400, 'invalid_request');
  });

  it('updates the existing definitions, answers 200, and 400 when none was updated', async () => {
    const existing = await created(ctx.admin, 'claimdefinitions', definition({ friendlyName: 'before' }));
    const update = { claimType: existing.claimType, variableName: existing.variableName, friendlyName: 'after' };
    const missing = definition();
    const response = await ctx.admin.put(`${defs}/many`, { body: [update, missing] });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      items: [update],
      failed: [{ index: 1, id: missing.claimType, error: 'not_found', message: expect.any(String) }],
    });
    expect((await ctx.admin.get(at(String(existing.claimType)))).body.friendlyName).toBe('after');
    expectError(await ctx.admin.get(at(missing.claimType)), 404, 'not_found');
    expectError(await ctx.admin.put(`${defs}/many`, { body: [definition()] }), 400, 'invalid_request');
  });
});

describe('ClaimDefinitions_GetAll, _GetAllFilter and _Search', () => {
  const prefix = `urn:e2e:${unique('list')}:`;
  const mine = ['a', 'b', 'c'].map((letter) => `${prefix}${letter}`);

  beforeAll(async () => {
    for (const [i, claimType] of mine.entries()) {
      await created(ctx.admin, 'claimdefinitions', definition({ claimType, friendlyName: `z${2 - i}` }));
    }
  });

  it('lists every definition with X-Total-Count, sorted by claimType', async () => {
    const response = await ctx.admin.get<Json[]>(defs);
    expect(response.status).toBe(200);
    expect(totalCount(response)).toBe(response.body.length);
    expect(claimTypes(response.body).filter((type) => type.startsWith(prefix))).toEqual(mine);
  });

  it('filters, sorts by friendlyName and trims to the asked attributes', async () => {
    const query = { filter: `claimType sw "${prefix}"`, sortBy: 'friendlyName', attributes: 'friendlyName' };
    const response = await ctx.admin.get<Json[]>(`${defs}/.filter`, { query });
    expect(response.status).toBe(200);
    expect(totalCount(response)).toBe(3);
    expect(response.body.map((item) => item.friendlyName)).toEqual(['z0', 'z1', 'z2']);
    expect(claimTypes(response.body)).toEqual([...mine].reverse());
    expect(response.body.every((item) => item.sensitive === undefined && item.avoidIssue === undefined)).toBe(true);
  });

  it('answers 400 invalid_filter for a filter that does not parse', async () => {
    const response = await ctx.admin.get(`${defs}/.filter`, { query: { filter: 'claimType zz "x"' } });
    expectError(response, 400, 'invalid_filter');
  });

  it('searches with a query object, and returns every definition without one', async () => {
    const body = { filter: `claimType sw "${prefix}"`, sortOrder: 'Descending' };
    const searched = await ctx.admin.post<Json[]>(`${defs}/.search`, { body });
    expect(searched.status).toBe(200);
    expect(claimTypes(searched.body)).toEqual([...mine].reverse());
    const everything = await ctx.admin.get<Json[]>(defs);
    const unqualified = await ctx.admin.post<Json[]>(`${defs}/.search`);
    expect(unqualified.status).toBe(200);
    expect(claimTypes(unqualified.body)).toEqual(claimTypes(everything.body));
  });
});
