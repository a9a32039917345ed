import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, links, type Query, totalCount } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { serverPerFile } from '../helpers/fixtures.js';
import { createGroup, createUser, filterPath, lockedUsersPath, type User, userNames, usersPath } from './support.js';

const ctx = serverPerFile();
const filter = 'userName sw "pg"';

/** Seven users whose userNames start with "pg"; display names order them differently from their userNames. */
const people = [
  { userName: 'pg1', displayName: 'Garcia', active: true, groups: ['Zulu'] },
  { userName: 'pg2', displayName: 'anders', active: false, groups: ['Alpha'] },
  { userName: 'PG3', displayName: 'Evans', active: true },
  { userName: 'pg4', displayName: 'baker', active: false, groups: ['Mike'] },
  { userName: 'pg5', displayName: 'Fischer', active: true },
  { userName: 'pg6', displayName: 'chen', active: true },
  { userName: 'pg7', displayName: 'Dubois', active: false },
];
const byUserName = ['pg1', 'pg2', 'PG3', 'pg4', 'pg5', 'pg6', 'pg7'];
const byDisplayName = ['pg2', 'pg4', 'pg6', 'pg7', 'PG3', 'pg5', 'pg1'];

beforeAll(async () => {
  for (const group of ['Zulu', 'Alpha', 'Mike']) await createGroup(ctx.admin, group);
  for (const person of people) await createUser(ctx.admin, person);
});

function page(query: Query): Promise<ApiResponse<User[]>> {
  return ctx.admin.get<User[]>(filterPath, { query: { filter, ...query } });
}

/** The Link header's addresses as path and query parameters. */
function linkTargets(response: ApiResponse<unknown>): Record<string, { path: string; query: Record<string, string> }> {
  return Object.fromEntries(
    Object.entries(links(response)).map(([rel, address]) => {
      const url = new URL(address, ctx.server.url);
      return [rel, { path: url.pathname, query: Object.fromEntries(url.searchParams) }];
    }),
  );
}

describe('paging of Users_GetAllFilter', () => {
  it('answers the first page with X-Total-Count and a next link only', async () => {
    const response = await page({ pageIndex: 1, pageSize: 3 });
    expect(response.status).toBe(200);
    expect(userNames(response)).toEqual(['pg1', 'pg2', 'PG3']);
    expect(totalCount(response)).toBe(7);
    expect(linkTargets(response)).toEqual({
      next: { path: filterPath, query: { filter, pageIndex: '2', pageSize: '3' } },
    });
  });

  it('answers a middle page with next and prev links', async () => {
    const response = await page({ pageIndex: 2, pageSize: 3 });
    expect(userNames(response)).toEqual(['pg4', 'pg5', 'pg6']);
    expect(totalCount(response)).toBe(7);
    expect(linkTargets(response)).toEqual({
      next: { path: filterPath, query: { filter, pageIndex: '3', pageSize: '3' } },
      prev: { path: filterPath, query: { filter, pageIndex: '1', pageSize: '3' } },
    });
  });

  it('answers the last page with a prev link only', async () => {
    const response = await page({ pageIndex: 3, pageSize: 3 });
    expect(userNames(response)).toEqual(['pg7']);
    expect(totalCount(response)).toBe(7);
    expect(linkTargets(response)).toEqual({
      prev: { path: filterPath, query: { filter, pageIndex: '2', pageSize: '3' } },
    });
  });

  it('answers a page past the end with [] and the total', async () => {
    const response = await page({ pageIndex: 9, pageSize: 3 });
    expect({ status: response.status, body: response.body, total: totalCount(response) }).toEqual({
      status: 200,
      body: [],
      total: 7,
    });
    expect(links(response).next).toBeUndefined();
  });

  it('sends no Link header when everything fits on one page', async () => {
    const response = await page({});
    expect(userNames(response)).toEqual(byUserName);
    expect(response.headers.get('link')).toBeNull();
  });

  it('normalises pageIndex 0 to page 1 of 1000', async () => {
    const response = await page({ pageIndex: 0, pageSize: 2 });
    expect(response.status).toBe(200);
    expect(userNames(response)).toEqual(byUserName);
    expect(response.headers.get('link')).toBeNull();
  });

  it('normalises pageSize 0 and an invalid pageSize or pageIndex to page 1 of 1000', async () => {
    for (const query of [
      { pageIndex: 2, pageSize: 0 },
      { pageIndex: 2, pageSize: 'abc' },
      { pageIndex: 'x', pageSize: 2 },
    ]) {
      const response = await page(query);
      expect({ query, status: response.status, names: userNames(response) }).toEqual({
        query,
        status: 200,
        names: byUserName,
      });
    }
  });

  it('treats pageSize 5000 as 1000 (page 2 is empty and links back with pageSize 1000)', async () => {
    const first = await page({ pageIndex: 1, pageSize: 5000 });
    expect(userNames(first)).toEqual(byUserName);
    const second = await page({ pageIndex: 2, pageSize: 5000 });
    expect({ status: second.status, body: second.body, total: totalCount(second) }).toEqual({
      status: 200,
      body: [],
      total: 7,
    });
    expect(linkTargets(second)).toEqual({
      prev: { path: filterPath, query: { filter, pageIndex: '1', pageSize: '1000' } },
    });
  });
});

describe('paging of Users_GetAll', () => {
  it('pages the whole list (the administrator first) with X-Total-Count and Link', async () => {
    const response = await ctx.admin.get<User[]>(usersPath, { query: { pageIndex: 2, pageSize: 2 } });
    expect(response.status).toBe(200);
    expect(userNames(response)).toEqual(['pg2', 'PG3']);
    expect(totalCount(response)).toBe(8);
    expect(Object.keys(links(response)).sort()).toEqual(['next', 'prev']);
  });
});

describe('sorting', () => {
  it('sorts by displayName Descending', async () => {
    const response = await page({ sortBy: 'displayName', sortOrder: 'Descending' });
    expect(userNames(response)).toEqual([...byDisplayName].reverse());
  });

  it('sorts by displayName ascending by default and for any sortOrder but Descending', async () => {
    expect(userNames(await page({ sortBy: 'displayName' }))).toEqual(byDisplayName);
    expect(userNames(await page({ sortBy: 'displayName', sortOrder: 'Ascending' }))).toEqual(byDisplayName);
    expect(userNames(await page({ sortBy: 'displayName', sortOrder: 'sideways' }))).toEqual(byDisplayName);
  });

  it('sorts by userName when sortBy is blank or unknown', async () => {
    expect(userNames(await page({ sortBy: 'nosuchfield' }))).toEqual(byUserName);
    expect(userNames(await page({ sortBy: '' }))).toEqual(byUserName);
    expect(userNames(await page({ sortBy: 'password', sortOrder: 'Descending' }))).toEqual([...byUserName].reverse());
  });

  it('sorts by active and by groups, then by key, and pages in that order', async () => {
    const byActive = userNames(await page({ sortBy: 'active' }));
    expect(byActive.slice(0, 3).sort()).toEqual(['pg2', 'pg4', 'pg7']);
    expect(byActive.slice(3).sort()).toEqual(['PG3', 'pg1', 'pg5', 'pg6']);
    const byGroups = userNames(await page({ sortBy: 'groups' }));
    expect(byGroups.slice(0, 3)).toEqual(['pg2', 'pg4', 'pg1']);
    const pages = [1, 2, 3].map((pageIndex) => page({ sortBy: 'active', pageIndex, pageSize: 3 }));
    expect((await Promise.all(pages)).flatMap(userNames)).toEqual(byActive);
  });

  it('sorts Users_GetAll the same way', async () => {
    const response = await ctx.admin.get(usersPath, { query: { sortBy: 'displayName', sortOrder: 'Descending' } });
    expect(userNames(response).filter((name) => name !== 'admin')).toEqual([...byDisplayName].reverse());
  });
});

describe('attributes projection', () => {
  it('answers only id, userName and email for attributes=userName,email', async () => {
    const response = await page({ attributes: 'userName,email', pageSize: 2 });
    expect(response.status).toBe(200);
    const id = expect.any(String);
    expect(response.body).toEqual([
      { id, userName: 'pg1', email: null },
      { id, userName: 'pg2', email: null },
    ]);
    expect(totalCount(response)).toBe(7);
  });

  it('reads attribute names case-insensitively and always keeps the id', async () => {
    const response = await page({ attributes: 'DISPLAYNAME', pageSize: 1 });
    expect(response.body).toEqual([{ id: expect.any(String), displayName: 'Garcia' }]);
  });

  it('answers complete users for an empty attributes parameter', async () => {
    const response = await page({ attributes: '', pageSize: 1 });
    expect(Object.keys(response.body[0]).sort()).toEqual(
      [
        'active',
        'claims',
        'createdAt',
        'displayName',
        'email',
        'forceResetPasswordAfterFirstTimeLogin',
        'groups',
        'id',
        'locked',
        'organization',
        'phoneNumber',
        'updatedAt',
        'userName',
      ].sort(),
    );
  });
});

describe('paging of Users_GetAllLockedUsers', () => {
  it('answers 404 when no user is locked, whatever the paging', async () => {
    expectError(await ctx.admin.get(lockedUsersPath), 404, 'not_found');
    expectError(await ctx.admin.get(lockedUsersPath, { query: { pageIndex: 0, pageSize: 5000 } }), 404, 'not_found');
  });
});
