import { beforeAll, describe, expect, it } from 'vitest';
import { apiBase, type Json, links, type Query, totalCount, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, names, serverPerFile } from './helpers/fixtures.js';

const orgs = `${apiBase}/organizations`;
const ctx = serverPerFile();

describe('Organizations_GetOrganization', () => {
  it('answers the seeded Root organization, which has no parent', async () => {
    const response = await ctx.admin.get(`${orgs}/Root`);
    expect(response.status).toBe(200);
    expect(response.body.name).toBe('Root');
    expect(response.body.parentName ?? null).toBeNull();
  });

  it('answers 404 for an organization that does not exist', async () => {
    expectError(await ctx.admin.get(`${orgs}/${unique('missing')}`), 404, 'not_found');
  });
});

describe('Organizations_PostOrganization', () => {
  it('creates an organization under a parent and answers 200 with it', async () => {
    const body = { name: unique('acme'), displayName: 'Acme', parentName: 'Root', accessOrganizationName: 'Root' };
    const response = await ctx.admin.post(orgs, { body });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject(body);
    const readBack = await ctx.admin.get(`${orgs}/${body.name}`);
    expect(readBack.status).toBe(200);
    expect(readBack.body).toMatchObject(body);
  });

  it('answers 409 for a name that exists in another case', async () => {
    const name = unique('dup');
    await created(ctx.admin, 'organizations', { name, parentName: 'Root' });
    const duplicate = { name: name.toUpperCase(), parentName: 'Root' };
    expectError(await ctx.admin.post(orgs, { body: duplicate }), 409, 'conflict');
  });

  it('answers 400 for a missing name', async () => {
    expectError(await ctx.admin.post(orgs, { body: { displayName: 'nameless' } }), 400, 'invalid_request');
  });

  it('answers 400 for a parent that does not exist, and creates nothing', async () => {
    const name = unique('orphan');
    const body = { name, parentName: unique('noparent') };
    expectError(await ctx.admin.post(orgs, { body }), 400, 'invalid_request');
    expectError(await ctx.admin.get(`${orgs}/${name}`), 404, 'not_found');
  });
});

describe('Organizations_GetChildOrganizations', () => {
  const parent = unique('parent');
  const children = [`${parent}a`, `${parent}b`];

  beforeAll(async () => {
    await created(ctx.admin, 'organizations', { name: parent, parentName: 'Root' });
    for (const name of children) await created(ctx.admin, 'organizations', { name, parentName: parent });
  });

  it('answers the children of an organization', async () => {
    const response = await ctx.admin.get(`${orgs}/${parent}/childs`);
    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual(children);
    expect(response.body).toMatchObject(children.map((name) => ({ name, parentName: parent })));
  });

  it('answers 404 for an organization without children and for one that does not exist', async () => {
    expectError(await ctx.admin.get(`${orgs}/${children[0]}/childs`), 404, 'not_found');
    expectError(await ctx.admin.get(`${orgs}/${unique('missing')}/childs`), 404, 'not_found');
  });

  it('refuses with 409 to delete an organization that has children, and keeps it', async () => {
    expectError(await ctx.admin.delete(`${orgs}/${parent}`), 409, 'conflict');
    expect((await ctx.admin.get(`${orgs}/${parent}`)).status).toBe(200);
  });
});

describe('Organizations_PutOrganization', () => {
  it('updates the display name and answers 200 with the organization', async () => {
    const name = unique('put');
    await created(ctx.admin, 'organizations', { name, displayName: 'before', parentName: 'Root' });
    const response = await ctx.admin.put(orgs, { body: { name, displayName: 'after', parentName: 'Root' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name, displayName: 'after', parentName: 'Root' });
    expect((await ctx.admin.get(`${orgs}/${name}`)).body).toMatchObject({ displayName: 'after' });
  });

  it('answers 404 for an organization that does not exist', async () => {
    const body = { name: unique('putmissing'), displayName: 'x', parentName: 'Root' };
    expectError(await ctx.admin.put(orgs, { body }), 404, 'not_found');
  });

  it('answers 400 for a missing name', async () => {
    expectError(await ctx.admin.put(orgs, { body: { displayName: 'x' } }), 400, 'invalid_request');
  });
});

describe('Organizations_DeleteOrganization', () => {
  it('deletes an organization, and answers 200 again once it is gone', async () => {
    const name = unique('del');
    await created(ctx.admin, 'organizations', { name, parentName: 'Root' });
    expect((await ctx.admin.delete(`${orgs}/${name}`)).status).toBe(200);
    expectError(await ctx.admin.get(`${orgs}/${name}`), 404, 'not_found');
    expect((await ctx.admin.delete(`${orgs}/${name}`)).status).toBe(200);
  });

  it('refuses with 409 to delete an organization that has users, and keeps it', async () => {
    const name = unique('peopled');
    await created(ctx.admin, 'organizations', { name, parentName: 'Root' });
    await created(ctx.admin, 'users', { userName: unique('member'), organization: name });
    expectError(await ctx.admin.delete(`${orgs}/${name}`), 409, 'conflict');
    expect((await ctx.admin.get(`${orgs}/${name}`)).status).toBe(200);
  });
});

describe('Organizations_DeleteOrganizations', () => {
  it('deletes those not in use, keeps one with users, and answers 200; 400 when none was deleted', async () => {
    const free = unique('free');
    const used = unique('used');
    await created(ctx.admin, 'organizations', { name: free, parentName: 'Root' });
    await created(ctx.admin, 'organizations', { name: used, parentName: 'Root' });
    await created(ctx.admin, 'users', { userName: unique('member'), organization: used });

    const response = await ctx.admin.delete(`${orgs}/many`, { body: [free, used] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      deleted: [free],
      failed: [{ index: 1, id: used, error: expect.any(String), message: expect.any(String) }],
    });
    expectError(await ctx.admin.get(`${orgs}/${free}`), 404, 'not_found');
    expect((await ctx.admin.get(`${orgs}/${used}`)).status).toBe(200);

    expectError(await ctx.admin.delete(`${orgs}/many`, { body: [used] }), 400, 'invalid_request');
    expect((await ctx.admin.get(`${orgs}/${used}`)).status).toBe(200);
  });
});

describe('Organizations_GetAll and Organizations_GetAllFilter', () => {
  const prefix = unique('list');
  const mine = ['a', 'b', 'c'].map((letter) => `${prefix}${letter}`);
  const all = (query: Query = {}) => ctx.admin.get<Json[]>(orgs, { query });

  beforeAll(async () => {
    for (const name of mine) await created(ctx.admin, 'organizations', { name, displayName: name, parentName: 'Root' });
  });

  it('lists every organization sorted by name, Root included, with X-Total-Count', async () => {
    const response = await all();
    expect(response.status).toBe(200);
    expect(names(response.body)).toContain('Root');
    expect(names(response.body).filter((name) => name.startsWith(prefix))).toEqual(mine);
    expect(totalCount(response)).toBe(response.body.length);
  });

  it('pages, sorts descending and falls back to name for an unknown sortBy', async () => {
    const everything = names((await all()).body);
    const page = await all({ pageIndex: 2, pageSize: 1 });
    expect(names(page.body)).toEqual(everything.slice(1, 2));
    expect(totalCount(page)).toBe(everything.length);
    expect(Object.keys(links(page)).sort()).toEqual(['next', 'prev']);
    expect(names((await all({ sortOrder: 'Descending' })).body)).toEqual([...everything].reverse());
    expect(names((await all({ sortBy: 'bogus' })).body)).toEqual(everything);
    expect(names((await all({ pageSize: 0 })).body)).toEqual(everything);
  });

  it('filters with a SCIM expression and returns only the asked attributes plus the name', async () => {
    const filtered = await ctx.admin.get(`${orgs}/.filter`, { query: { filter: `name sw "${prefix}"` } });
    expect(filtered.status).toBe(200);
    expect(names(filtered.body)).toEqual(mine);
    expect(totalCount(filtered)).toBe(3);
    const query = { filter: `name eq "${mine[1]}" and parentName eq "Root"`, attributes: 'displayName' };
    const projected = await ctx.admin.get(`${orgs}/.filter`, { query });
    expect(projected.status).toBe(200);
    expect(projected.body).toEqual([{ name: mine[1], displayName: mine[1] }]);
  });

  it('answers 400 invalid_filter for a filter that does not parse', async () => {
    const response = await ctx.admin.get(`${orgs}/.filter`, { query: { filter: 'name eq "unterminated' } });
    expectError(response, 400, 'invalid_filter');
  });
});
