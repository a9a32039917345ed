import { beforeAll, describe, expect, it } from 'vitest';
import { apiBase, type Json, roleClaimType, totalCount, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, names, serverPerFile, unknownGuid } from './helpers/fixtures.js';

const sets = `${apiBase}/claimsets`;
const ctx = serverPerFile();
const guidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const shoeSize = `urn:e2e:${unique('shoe')}`;

beforeAll(async () => {
  await created(ctx.admin, 'claimdefinitions', { claimType: shoeSize, kind: 'FreeClaimDefinition' });
});

describe('ClaimSets_PostClaimSet, _GetByName and _GetById', () => {
  it('creates a claim set and reads it back by name and by id', async () => {
    const body = { name: unique('profile'), description: 'profile claims', claimTypes: [roleClaimType, shoeSize] };
    const response = await ctx.admin.post(sets, { body });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ...body, id: expect.stringMatching(guidPattern) });
    const byName = await ctx.admin.get(`${sets}/${body.name}`);
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual(response.body);
    const byId = await ctx.admin.get(`${sets}/${response.body.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(response.body);
  });

  it('answers 409 for a name that exists in another case', async () => {
    const name = unique('dup');
    await created(ctx.admin, 'claimsets', { name, claimTypes: [] });
    expectError(await ctx.admin.post(sets, { body: { name: name.toUpperCase(), claimTypes: [] } }), 409, 'conflict');
  });

  it('answers 400 for a missing name', async () => {
    expectError(await ctx.admin.post(sets, { body: { claimTypes: [shoeSize] } }), 400, 'invalid_request');
  });

  it('answers 404 for an unknown name and for an unknown id', async () => {
    expectError(await ctx.admin.get(`${sets}/${unique('missing')}`), 404, 'not_found');
    expectError(await ctx.admin.get(`${sets}/${unknownGuid}`), 404, 'not_found');
  });
});

describe('ClaimSets_PutClaimSet', () => {
  it('updates the claim types and answers 200 with the set', async () => {
    const set = await created(ctx.admin, 'claimsets', { name: unique('put'), claimTypes: [roleClaimType] });
    const update = { id: set.id, name: set.name, description: 'now with shoes', claimTypes: [shoeSize] };
    const response = await ctx.admin.put(sets, { body: update });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject(update);
    expect((await ctx.admin.get(`${sets}/${set.name}`)).body).toMatchObject(update);
  });

  it('answers 404 for a set that does not exist, and creates nothing', async () => {
    const name = unique('putmissing');
    expectError(await ctx.admin.put(sets, { body: { name, claimTypes: [] } }), 404, 'not_found');
    expectError(await ctx.admin.get(`${sets}/${name}`), 404, 'not_found');
  });

  it('answers 400 for a missing name', async () => {
    expectError(await ctx.admin.put(sets, { body: { claimTypes: [] } }), 400, 'invalid_request');
  });
});

describe('ClaimSets_DeleteByName and _DeleteById', () => {
  it('deletes by name, then answers 404 once it is gone', async () => {
    const set = await created(ctx.admin, 'claimsets', { name: unique('delname'), claimTypes: [] });
    expect((await ctx.admin.delete(`${sets}/${set.name}`)).status).toBe(200);
    expectError(await ctx.admin.get(`${sets}/${set.name}`), 404, 'not_found');
    expectError(await ctx.admin.delete(`${sets}/${set.name}`), 404, 'not_found');
  });

  it('deletes by id, then answers 404 once it is gone', async () => {
    const set = await created(ctx.admin, 'claimsets', { name: unique('delid'), claimTypes: [] });
    expect((await ctx.admin.delete(`${sets}/${set.id}`)).status).toBe(200);
    expectError(await ctx.admin.get(`${sets}/${set.id}`), 404, 'not_found');
    expectError(await ctx.admin.get(`${sets}/${set.name}`), 404, 'not_found');
    expectError(await ctx.admin.delete(`${sets}/${set.id}`), 404, 'not_found');
  });
});

describe('ClaimSets_GetAll', () => {
  it('lists every claim set with X-Total-Count, and pages', async () => {
    const prefix = unique('list');
    const mine = [`${prefix}a`, `${prefix}b`];
    for (const name of mine) await created(ctx.admin, 'claimsets', { name, claimTypes: [] });
    const response = await ctx.admin.get<Json[]>(sets);
    expect(response.status).toBe(200);
    expect(totalCount(response)).toBe(response.body.length);
    expect(names(response.body).filter((name) => name.startsWith(prefix))).toEqual(mine);
    const page = await ctx.admin.get<Json[]>(sets, { query: { pageIndex: 2, pageSize: 1 } });
    expect(page.status).toBe(200);
    expect(names(page.body)).toEqual(names(response.body).slice(1, 2));
    expect(totalCount(page)).toBe(response.body.length);
  });
});
