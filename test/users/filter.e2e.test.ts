import { beforeAll, describe, expect, it } from 'vitest';
import { totalCount } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { serverPerFile } from '../helpers/fixtures.js';
import { createGroup, createUser, filterPath, type User, userNames, userNamesWhere, usersPath } from './support.js';

const ctx = serverPerFile();
const searchPath = `${usersPath}/.search`;

/**
 * The users of this file's server besides `admin` (no e-mail, no display name, no groups, an Administrator role
 * claim). Results come in the default order, by userName case-insensitively.
 */
const people = [
  {
    userName: 'bjensen',
    email: 'bjensen@example.com',
    displayName: 'Barbara Jensen',
    groups: ['Staff'],
    claims: [{ type: 'locale', value: 'nl' }],
  },
  {
    userName: 'jsmith',
    email: 'jsmith@example.org',
    displayName: 'John Smith',
    claims: [{ type: 'locale', value: 'en' }],
  },
  { userName: 'JDoe', displayName: 'Jane Doe', active: false, claims: [{ type: 'given_name', value: 'Jane' }] },
  {
    userName: 'alice',
    email: 'alice@example.net',
    displayName: 'Alice Jenkins',
    groups: ['Staff', 'Ops'],
    claims: [{ type: 'locale', value: 'NL' }],
  },
  { userName: 'anton', email: 'anton@example.org', displayName: 'Anton Xu' },
];
const everyone = ['admin', 'alice', 'anton', 'bjensen', 'JDoe', 'jsmith'];
let anton: User;
/** Just after the last change of any user but anton. */
let cutoff: string;

beforeAll(async () => {
  await createGroup(ctx.admin, 'Staff');
  await createGroup(ctx.admin, 'Ops');
  const created: User[] = [];
  for (const person of people) created.push(await createUser(ctx.admin, person));
  const admin = (await ctx.admin.get<User[]>(filterPath, { query: { filter: 'userName eq "admin"' } })).body[0];
  const latest = Math.max(...[...created, admin].map((user) => Date.parse(user.updatedAt)));
  cutoff = new Date(latest + 1).toISOString();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const antonBefore = created[4];
  const put = await ctx.admin.put<User>(usersPath, {
    body: { id: antonBefore.id, userName: 'anton', displayName: 'Anton Xu (changed)' },
  });
  anton = put.body;
});

describe('Users_GetAllFilter: RFC 7644 §3.4.2.2 examples adapted to users', () => {
  const cases: [filter: string, expected: string[]][] = [
    ['userName eq "bjensen"', ['bjensen']],
    ['displayName co "Jen"', ['alice', 'bjensen']],
    ['userName sw "J"', ['JDoe', 'jsmith']],
    ['email pr', ['alice', 'anton', 'bjensen', 'jsmith']],
    ['meta.lastModified gt "2011-05-13T04:42:34Z"', everyone],
    ['userName sw "a" and not (email co "example.org")', ['admin', 'alice']],
    ['(active eq true and displayName co "smith") or userName eq "jdoe"', ['JDoe', 'jsmith']],
    ['claims[type eq "locale" and value eq "nl"]', ['alice', 'bjensen']],
    ['groups eq "Staff"', ['alice', 'bjensen']],
    ['claims.value eq "Jane"', ['JDoe']],
    ['email ew ".org"', ['anton', 'jsmith']],
    ['active ne true', ['JDoe']],
    ['userName ne "admin" and displayName pr and not (groups pr)', ['anton', 'JDoe', 'jsmith']],
  ];
  for (const [filter, expected] of cases) {
    it(`${filter} → ${expected.join(', ')}`, async () => {
      const response = await ctx.admin.get<User[]>(filterPath, { query: { filter } });
      expect(response.status).toBe(200);
      expect(userNames(response)).toEqual(expected);
      expect(totalCount(response)).toBe(expected.length);
    });
  }

  it('meta.lastModified gt and updatedAt gt a moment find only the user changed after it', async () => {
    expect(await userNamesWhere(ctx.admin, `meta.lastModified gt "${cutoff}"`)).toEqual(['anton']);
    expect(await userNamesWhere(ctx.admin, `updatedAt gt "${cutoff}"`)).toEqual(['anton']);
    expect(await userNamesWhere(ctx.admin, `updatedAt le "${cutoff}"`)).toEqual(everyone.filter((n) => n !== 'anton'));
    expect(Date.parse(anton.updatedAt)).toBeGreaterThan(Date.parse(cutoff));
  });

  it('answers 200 [] with X-Total-Count 0 when nothing matches', async () => {
    const response = await ctx.admin.get(filterPath, { query: { filter: 'userName eq "nobody"' } });
    expect({ status: response.status, body: response.body, total: totalCount(response) }).toEqual({
      status: 200,
      body: [],
      total: 0,
    });
  });

  it('answers every user without a filter', async () => {
    const response = await ctx.admin.get(filterPath);
    expect(response.status).toBe(200);
    expect(userNames(response)).toEqual(everyone);
  });
});

describe('Users_GetAllFilter: case-insensitivity', () => {
  it('compares string values case-insensitively', async () => {
    expect(await userNamesWhere(ctx.admin, 'userName eq "BJENSEN"')).toEqual(['bjensen']);
    expect(await userNamesWhere(ctx.admin, 'email eq "ALICE@Example.NET"')).toEqual(['alice']);
    expect(await userNamesWhere(ctx.admin, 'groups eq "staff"')).toEqual(['alice', 'bjensen']);
    expect(await userNamesWhere(ctx.admin, 'displayName co "jEn"')).toEqual(['alice', 'bjensen']);
  });

  it('reads attribute names, operators and and/or/not case-insensitively', async () => {
    expect(await userNamesWhere(ctx.admin, 'USERNAME EQ "bjensen"')).toEqual(['bjensen']);
    expect(await userNamesWhere(ctx.admin, 'DisplayName Co "Jen" AND Active Eq true')).toEqual(['alice', 'bjensen']);
    expect(await userNamesWhere(ctx.admin, 'Claims[Type eq "locale" AND Value eq "en"]')).toEqual(['jsmith']);
    expect(await userNamesWhere(ctx.admin, 'META.LASTMODIFIED gt "2011-05-13T04:42:34Z"')).toEqual(everyone);
  });
});

describe('Users_GetAllFilter: precedence', () => {
  it('binds and tighter than or: a or b and c means a or (b and c)', async () => {
    expect(await userNamesWhere(ctx.admin, 'userName eq "jdoe" or active eq true and displayName co "smith"')).toEqual([
      'JDoe',
      'jsmith',
    ]);
    expect(await userNamesWhere(ctx.admin, 'active eq false and userName eq "bjensen" or userName eq "alice"')).toEqual(
      ['alice'],
    );
  });

  it('lets parentheses override it', async () => {
    expect(
      await userNamesWhere(ctx.admin, '(userName eq "jdoe" or active eq true) and displayName co "smith"'),
    ).toEqual(['jsmith']);
    expect(
      await userNamesWhere(ctx.admin, 'active eq false and (userName eq "bjensen" or userName eq "alice")'),
    ).toEqual([]);
  });

  it('binds not tighter than and', async () => {
    expect(await userNamesWhere(ctx.admin, 'not (active eq true) and userName sw "j"')).toEqual(['JDoe']);
  });
});

describe('Users_GetAllFilter: invalid filters', () => {
  const invalid = [
    'userName eq',
    'userName eq "bjensen" and',
    '(userName eq "bjensen"',
    'userName equals "bjensen"',
    'userName eq bjensen',
    'nosuchattribute eq "x"',
    'claims[nosub eq "x"]',
    'active gt "x"',
    'active eq "yes"',
    'updatedAt gt "yesterday"',
    'userName[value eq "x"]',
  ];
  for (const filter of invalid) {
    it(`answers 400 invalid_filter for ${filter}`, async () => {
      expectError(await ctx.admin.get(filterPath, { query: { filter } }), 400, 'invalid_filter');
    });
  }
});

describe('Users_SearchUsers', () => {
  it('answers the users matching a query body, with its paging, sorting and attributes', async () => {
    const body = {
      filter: 'email pr',
      attributes: ['userName', 'email'],
      pageIndex: 1,
      pageSize: 3,
      sortBy: 'displayName',
      sortOrder: 'Descending',
    };
    const response = await ctx.admin.post<User[]>(searchPath, { body });
    expect(response.status).toBe(200);
    const id = expect.any(String);
    expect(response.body).toEqual([
      { id, userName: 'jsmith', email: 'jsmith@example.org' },
      { id, userName: 'bjensen', email: 'bjensen@example.com' },
      { id, userName: 'anton', email: 'anton@example.org' },
    ]);
    expect(totalCount(response)).toBe(4);
  });

  it('answers every user, complete, for a request with no body', async () => {
    const response = await ctx.admin.post<User[]>(searchPath);
    expect(response.status).toBe(200);
    expect(userNames(response)).toEqual(everyone);
    expect(totalCount(response)).toBe(everyone.length);
    const all = await ctx.admin.get<User[]>(usersPath);
    expect(response.body).toEqual(all.body);
  });

  it('answers every user for an empty query object', async () => {
    const response = await ctx.admin.post(searchPath, { body: {} });
    expect(response.status).toBe(200);
    expect(userNames(response)).toEqual(everyone);
  });

  it('answers 200 [] when nothing matches', async () => {
    const response = await ctx.admin.post(searchPath, { body: { filter: 'userName eq "nobody"' } });
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: [] });
  });

  it('answers 400 invalid_filter for a filter that does not parse or names an unknown attribute', async () => {
    expectError(await ctx.admin.post(searchPath, { body: { filter: 'userName eq' } }), 400, 'invalid_filter');
    expectError(await ctx.admin.post(searchPath, { body: { filter: 'shoeSize gt 3' } }), 400, 'invalid_filter');
  });

  it('answers 400 invalid_request for a query of the wrong shape or malformed JSON', async () => {
    expectError(await ctx.admin.post(searchPath, { body: { pageSize: 'ten' } }), 400, 'invalid_request');
    expectError(await ctx.admin.post(searchPath, { body: ['userName'] }), 400, 'invalid_request');
    expectError(await ctx.admin.post(searchPath, { rawBody: '{"filter": ' }), 400, 'invalid_request');
  });
});
