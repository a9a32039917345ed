import { beforeAll, describe, expect, it } from 'vitest';
import { apiBase, type Json, links, type Query, totalCount, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, names, serverPerFile } from './helpers/fixtures.js';

const groups = `${apiBase}/groups`;
const ctx = serverPerFile();

describe('Groups_PostGroup', () => {
  it('creates a group and answers 200 with it', async () => {
    const body = { name: unique('staff'), description: 'the staff', accessOrganizationName: 'Root' };
    const response = await ctx.admin.post(groups, { body });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject(body);
    const readBack = await ctx.admin.get(`${groups}/${body.name}`);
    expect(readBack.status).toBe(200);
    expect(readBack.body).toMatchObject(body);
  });

  it('answers 409 for a name that exists in another case, and keeps one group', async () => {
    const name = unique('dup');
    await created(ctx.admin, 'groups', { name });
    expectError(await ctx.admin.post(groups, { body: { name: name.toUpperCase() } }), 409, 'conflict');
    const list = await ctx.admin.get(`${groups}/.filter`, { query: { filter: `name eq "${name}"` } });
    expect(names(list.body)).toEqual([name]);
  });

  it('answers 400 for a missing or empty name', async () => {
    expectError(await ctx.admin.post(groups, { body: { description: 'no name' } }), 400, 'invalid_request');
    expectError(await ctx.admin.post(groups, { body: { name: '' } }), 400, 'invalid_request');
  });

  it('answers 400 for malformed JSON', async () => {
    expectError(await ctx.admin.post(groups, { rawBody: '{"name": ' }), 400, 'invalid_request');
  });
});

describe('Groups_GetGroup', () => {
  it('answers 404 for a group that does not exist', async () => {
    expectError(await ctx.admin.get(`${groups}/${unique('missing')}`), 404, 'not_found');
  });
});

describe('Groups_PutGroup', () => {
  it('updates the description and answers 200 with the group', async () => {
    const name = unique('put');
    await created(ctx.admin, 'groups', { name, description: 'before' });
    const response = await ctx.admin.put(groups, { body: { name, description: 'after' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name, description: 'after' });
    expect((await ctx.admin.get(`${groups}/${name}`)).body).toMatchObject({ name, description: 'after' });
  });

  it('answers 404 for a group that does not exist, and creates nothing', async () => {
    const name = unique('putmissing');
    expectError(await ctx.admin.put(groups, { body: { name, description: 'x' } }), 404, 'not_found');
    expectError(await ctx.admin.get(`${groups}/${name}`), 404, 'not_found');
  });

  it('answers 400 for a missing name', async () => {
    expectError(await ctx.admin.put(groups, { body: { description: 'x' } }), 400, 'invalid_request');
  });
});

describe('Groups_DeleteGroup', () => {
  it('deletes the group, and answers 200 again once it is gone', async () => {
    const name = unique('del');
    await created(ctx.admin, 'groups', { name });
    expect((await ctx.admin.delete(`${groups}/${name}`)).status).toBe(200);
    expectError(await ctx.admin.get(`${groups}/${name}`), 404, 'not_found');
    expect((await ctx.admin.delete(`${groups}/${name}`)).status).toBe(200);
  });
});

describe('Groups_DeleteGroups', () => {
  it('deletes the groups not in use, keeps a group a user is in, and answers 200', async () => {
    const free = unique('free');
    const used = unique('used');
    await created(ctx.admin, 'groups', { name: free });
    await created(ctx.admin, 'groups', { name: used });
    await created(ctx.admin, 'users', { userName: unique('member'), groups: [used] });

    const response = await ctx.admin.delete(`${groups}/many`, { body: [free, used] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      deleted: [free],
      failed: [{ index: 1, id: used, error: expect.any(String), message: expect.any(String) }],
    });
    expectError(await ctx.admin.get(`${groups}/${free}`), 404, 'not_found');
    expect((await ctx.admin.get(`${groups}/${used}`)).status).toBe(200);

    expectError(await ctx.admin.delete(`${groups}/many`, { body: [used] }), 400, 'invalid_request');
    expect((await ctx.admin.get(`${groups}/${used}`)).status).toBe(200);
  });
});

describe('Groups_GetAll and Groups_GetAllFilter', () => {
  const prefix = unique('page');
  const mine = ['a', 'b', 'c', 'd', 'e'].map((letter) => `${prefix}${letter}`);
  const all = (query: Query = {}) => ctx.admin.get<Json[]>(groups, { query });

  beforeAll(async () => {
    for (const name of mine) await created(ctx.admin, 'groups', { name, description: `group ${name}` });
  });

  it('lists every group sorted by name, with X-Total-Count and no Link when all fit', async () => {
    const response = await all();
    expect(response.status).toBe(200);
    expect(totalCount(response)).toBe(response.body.length);
    expect(names(response.body).filter((name) => name.startsWith(prefix))).toEqual(mine);
    expect(links(response)).toEqual({});
  });

  it('pages with pageIndex and pageSize, linking next and prev', async () => {
    const everything = names((await all()).body);
    const page2 = await all({ pageIndex: 2, pageSize: 2 });
    expect(page2.status).toBe(200);
    expect(names(page2.body)).toEqual(everything.slice(2, 4));
    expect(totalCount(page2)).toBe(everything.length);
    const rels = links(page2);
    expect(Object.keys(rels).sort()).toEqual(everything.length > 4 ? ['next', 'prev'] : ['prev']);
    const prev = await ctx.admin.get(rels.prev);
    expect(names(prev.body)).toEqual(everything.slice(0, 2));
    expect(Object.keys(links(prev))).toEqual(['next']);
  });

  it('treats pageSize 0 and pageSize 5000 as 1000 (pageIndex 1)', async () => {
    const everything = names((await all()).body);
    expect(names((await all({ pageSize: 0, pageIndex: 3 })).body)).toEqual(everything);
    expect(names((await all({ pageSize: 5000 })).body)).toEqual(everything);
    expect(names((await all({ pageSize: 'x', pageIndex: 2 })).body)).toEqual(everything);
  });

  it('sorts descending with sortOrder=Descending, and falls back to name for an unknown sortBy', async () => {
    const everything = names((await all()).body);
    expect(names((await all({ sortBy: 'name', sortOrder: 'Descending' })).body)).toEqual([...everything].reverse());
    expect(names((await all({ sortBy: 'bogus' })).body)).toEqual(everything);
    expect(names((await all({ sortBy: 'name', sortOrder: 'sideways' })).body)).toEqual(everything);
  });

  it('filters with a SCIM expression, case-insensitively, with X-Total-Count', async () => {
    const response = await ctx.admin.get<Json[]>(`${groups}/.filter`, { query: { filter: `name sw "${prefix}"` } });
    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual(mine);
    expect(totalCount(response)).toBe(5);
    const shouting = await ctx.admin.get(`${groups}/.filter`, {
      query: { filter: `NAME SW "${prefix.toUpperCase()}"` },
    });
    expect(names(shouting.body)).toEqual(mine);
  });

  it('pages and sorts a filter', async () => {
    const query = { filter: `name sw "${prefix}"`, pageSize: 2, sortBy: 'name', sortOrder: 'Descending' };
    const response = await ctx.admin.get(`${groups}/.filter`, { query });
    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual([mine[4], mine[3]]);
    expect(totalCount(response)).toBe(5);
    expect(Object.keys(links(response))).toEqual(['next']);
  });

  it('returns only the asked attributes plus the name', async () => {
    const query = { filter: `name eq "${mine[0]}"`, attributes: 'description' };
    const response = await ctx.admin.get(`${groups}/.filter`, { query });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ name: mine[0], description: `group ${mine[0]}` }]);
  });

  it('answers 400 invalid_filter for a filter that does not parse or names an unknown attribute', async () => {
    expectError(await ctx.admin.get(`${groups}/.filter`, { query: { filter: 'name sw' } }), 400, 'invalid_filter');
    expectError(await ctx.admin.get(`${groups}/.filter`, { query: { filter: 'bogus eq "x"' } }), 400, 'invalid_filter');
  });
});
