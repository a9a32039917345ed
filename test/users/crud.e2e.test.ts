import { beforeAll, describe, expect, it } from 'vitest';
import { Api, passwordGrant, roleClaimType, testPassword, totalCount, unique, userApi } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { serverPerFile, unknownGuid } from '../helpers/fixtures.js';
import {
  createGroup,
  createUser,
  expectedUser,
  readUser,
  type User,
  type UserBody,
  userNames,
  userNamesWhere,
  userOperations,
  usersPath,
} from './support.js';

const ctx = serverPerFile();
const staff = unique('staff');
const ops = unique('ops');

beforeAll(async () => {
  await createGroup(ctx.admin, staff);
  await createGroup(ctx.admin, ops);
});

describe('Users_Post', () => {
  it('creates a user with every field, answers 200 with it (no password) and reads back the same', async () => {
    const body: UserBody = {
      userName: unique('bjensen'),
      email: `${unique('b')}@example.com`,
      displayName: 'Barbara Jensen',
      active: false,
      organization: 'Root',
      groups: [staff],
      forceResetPasswordAfterFirstTimeLogin: true,
      claims: [
        { type: 'locale', value: 'nl' },
        { type: 'given_name', value: 'Barbara' },
      ],
      phoneNumber: '+31612345678',
      password: testPassword,
    };
    const response = await ctx.admin.post<User>(usersPath, { body });
    expect(response.status).toBe(200);
    const { password: _password, ...visible } = body;
    expect(response.body).toEqual(expectedUser(visible));
    expect(Object.keys(response.body)).not.toContain('password');
    expect(await readUser(ctx.admin, response.body.id)).toEqual(response.body);
  });

  it('applies the defaults: active, organization Root, no groups, no claims, no password needed', async () => {
    const userName = unique('minimal');
    const response = await ctx.admin.post<User>(usersPath, { body: { userName } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expectedUser({ userName }));
    expect(await readUser(ctx.admin, response.body.id)).toEqual(response.body);
  });

  it('keeps an id given in the body', async () => {
    const id = crypto.randomUUID();
    const response = await ctx.admin.post<User>(usersPath, { body: { id, userName: unique('withid') } });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(id);
    expect((await readUser(ctx.admin, id)).userName).toBe(response.body.userName);
  });

  it('answers 409 for a userName, an e-mail (in another case) or an id that exists, and keeps one user', async () => {
    const first = await createUser(ctx.admin, { userName: unique('taken'), email: `${unique('t')}@example.com` });
    const sameName = { userName: first.userName.toUpperCase() };
    const sameEmail = { userName: unique('other'), email: first.email!.toUpperCase() };
    const sameId = { userName: unique('other'), id: first.id };
    for (const body of [sameName, sameEmail, sameId]) {
      expectError(await ctx.admin.post(usersPath, { body }), 409, 'conflict');
    }
    expect(await userNamesWhere(ctx.admin, `userName eq "${first.userName}"`)).toEqual([first.userName]);
    expect(await userNamesWhere(ctx.admin, `userName eq "${sameEmail.userName}" or id eq "${first.id}"`)).toEqual([
      first.userName,
    ]);
  });

  it('answers 400 for a missing or empty userName, a bad e-mail, a bad phone number or malformed JSON', async () => {
    const userName = unique('bad');
    const bodies = [
      { email: 'x@example.com' },
      { userName: '' },
      { userName, email: 'not-an-address' },
      { userName, phoneNumber: 'call me' },
      { userName, active: 'yes' },
      { userName, id: 'not-a-guid' },
    ];
    for (const body of bodies) expectError(await ctx.admin.post(usersPath, { body }), 400, 'invalid_request');
    expectError(await ctx.admin.post(usersPath, { rawBody: '{"userName": ' }), 400, 'invalid_request');
    expect(await userNamesWhere(ctx.admin, `userName eq "${userName}"`)).toEqual([]);
  });

  it('answers 400 for a claim without a claim definition, an unknown group or organization, and creates nothing', async () => {
    const userName = unique('refs');
    const bodies = [
      { userName, claims: [{ type: 'urn:example:no-definition', value: 'x' }] },
      { userName, groups: [unique('nogroup')] },
      { userName, organization: unique('noorg') },
    ];
    for (const body of bodies) {
      const response = await ctx.admin.post(usersPath, { body });
      expectError(response, 400, 'invalid_request');
      expect((response.body as { details: unknown[] }).details).toEqual([expect.objectContaining({ index: 0 })]);
    }
    expect(await userNamesWhere(ctx.admin, `userName eq "${userName}"`)).toEqual([]);
  });

  it('answers 400 for two values of a Single claim definition (locale) and creates nothing', async () => {
    const userName = unique('twolocales');
    const claims = [
      { type: 'locale', value: 'nl' },
      { type: 'locale', value: 'en' },
    ];
    expectError(await ctx.admin.post(usersPath, { body: { userName, claims } }), 400, 'invalid_request');
    expect(await userNamesWhere(ctx.admin, `userName eq "${userName}"`)).toEqual([]);
  });
});

describe('Users_Get_Existing', () => {
  it('answers 404 not_found for an unknown id and 400 for an id that is not a GUID', async () => {
    expectError(await ctx.admin.get(`${usersPath}/${unknownGuid}`), 404, 'not_found');
    expectError(await ctx.admin.get(`${usersPath}/not-a-guid`), 400, 'invalid_request');
  });
});

describe('Users_GetAll', () => {
  it('answers 200 with every user (the administrator among them) and X-Total-Count', async () => {
    const created = await createUser(ctx.admin, { userName: unique('listed') });
    const response = await ctx.admin.get<User[]>(usersPath);
    expect(response.status).toBe(200);
    expect(totalCount(response)).toBe(response.body.length);
    expect(userNames(response)).toEqual(expect.arrayContaining(['admin', created.userName]));
    expect(response.body.find((user) => user.id === created.id)).toEqual(created);
  });

  it('lists only the holders of a claim with claimType and value (value compared case-insensitively)', async () => {
    const value = unique('Team');
    const a = await createUser(ctx.admin, { userName: unique('holder'), claims: [{ type: 'nickname', value }] });
    const b = await createUser(ctx.admin, { userName: unique('holder'), claims: [{ type: 'nickname', value }] });
    await createUser(ctx.admin, { userName: unique('other'), claims: [{ type: 'nickname', value: 'x' }] });
    const response = await ctx.admin.get(usersPath, { query: { claimType: 'nickname', value: value.toLowerCase() } });
    expect(response.status).toBe(200);
    expect(userNames(response)).toEqual([a.userName, b.userName].sort());
    expect(totalCount(response)).toBe(2);
  });

  it('answers 404 when no user matches (the spec rule for an empty user list)', async () => {
    const response = await ctx.admin.get(usersPath, { query: { claimType: 'nickname', value: unique('nobody') } });
    expectError(response, 404, 'not_found');
    expectError(await ctx.admin.get(usersPath, { query: { claimType: 'urn:example:none' } }), 404, 'not_found');
  });

  it('answers 400 for a value without a claimType', async () => {
    expectError(await ctx.admin.get(usersPath, { query: { value: 'x' } }), 400, 'invalid_request');
  });
});

describe('Users_Put', () => {
  it('changes the given fields, keeps the absent ones, and replaces groups and claims', async () => {
    const user = await createUser(ctx.admin, {
      userName: unique('put'),
      email: `${unique('p')}@example.com`,
      displayName: 'Before',
      phoneNumber: '+3110000000',
      groups: [staff],
      claims: [{ type: 'locale', value: 'nl' }],
    });
    const body = { id: user.id, displayName: 'After', groups: [ops], claims: [{ type: 'name', value: 'Pat' }] };
    const response = await ctx.admin.put<User>(usersPath, { body: { ...body, userName: user.userName } });
    expect(response.status).toBe(200);
    const expected = { ...user, ...body, updatedAt: expect.any(String) };
    expect(response.body).toEqual(expected);
    expect(await readUser(ctx.admin, user.id)).toEqual(expected);
  });

  it('clears nullable fields given as null and empties lists given as []', async () => {
    const user = await createUser(ctx.admin, {
      userName: unique('clear'),
      email: `${unique('c')}@example.com`,
      groups: [staff],
    });
    const body = { id: user.id, userName: user.userName, email: null, groups: [] };
    const response = await ctx.admin.put<User>(usersPath, { body });
    expect(response.status).toBe(200);
    expect(await readUser(ctx.admin, user.id)).toMatchObject({ email: null, groups: [] });
  });

  it('answers 404 for an unknown id and creates nothing', async () => {
    const userName = unique('ghost');
    expectError(await ctx.admin.put(usersPath, { body: { id: unknownGuid, userName } }), 404, 'not_found');
    expect(await userNamesWhere(ctx.admin, `userName eq "${userName}"`)).toEqual([]);
  });

  it('answers 409 for the userName or e-mail of another user and changes nothing', async () => {
    const other = await createUser(ctx.admin, { userName: unique('other'), email: `${unique('o')}@example.com` });
    const user = await createUser(ctx.admin, { userName: unique('mine'), displayName: 'Mine' });
    const clashes = [
      { id: user.id, userName: other.userName, displayName: 'Changed' },
      { id: user.id, userName: user.userName, email: other.email!.toUpperCase(), displayName: 'Changed' },
    ];
    for (const body of clashes) expectError(await ctx.admin.put(usersPath, { body }), 409, 'conflict');
    expect(await readUser(ctx.admin, user.id)).toEqual(user);
  });

  it('answers 400 without an id, for an unknown claim type or a wrong type, and changes nothing', async () => {
    const user = await createUser(ctx.admin, { userName: unique('invalid'), displayName: 'Kept' });
    const bodies = [
      { userName: user.userName, displayName: 'Changed' },
      { id: user.id, userName: user.userName, displayName: 'Changed', claims: [{ type: 'urn:nope', value: 'x' }] },
      { id: user.id, userName: user.userName, displayName: 'Changed', active: 'no' },
    ];
    for (const body of bodies) expectError(await ctx.admin.put(usersPath, { body }), 400, 'invalid_request');
    expect(await readUser(ctx.admin, user.id)).toEqual(user);
  });

  it('sets a new password that the token endpoint then accepts, when the old password is right', async () => {
    const user = await createUser(ctx.admin, { userName: unique('pw'), password: testPassword });
    const newPassword = 'N3w-Passw0rd-For-Test!';
    const body = { id: user.id, userName: user.userName, oldPassword: testPassword, password: newPassword };
    expect((await ctx.admin.put(usersPath, { body })).status).toBe(200);
    expect((await passwordGrant(ctx.server.url, user.userName, newPassword)).status).toBe(200);
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(400);
  });

  it('answers 400 for a wrong old password and keeps the password and the other fields', async () => {
    const user = await createUser(ctx.admin, { userName: unique('wrongold'), password: testPassword });
    const body = { id: user.id, userName: user.userName, displayName: 'Changed', oldPassword: 'wrong', password: 'x1' };
    expectError(await ctx.admin.put(usersPath, { body }), 400, 'invalid_request');
    expect(await readUser(ctx.admin, user.id)).toEqual(user);
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(200);
  });

  it('disables the user (active false) at the 10th wrong old password', async () => {
    const user = await createUser(ctx.admin, { userName: unique('guesser'), password: testPassword });
    const body = { id: user.id, userName: user.userName, oldPassword: 'wrong', password: 'Another-0ne!' };
    for (let attempt = 1; attempt <= 9; attempt++) {
      expectError(await ctx.admin.put(usersPath, { body }), 400, 'invalid_request');
    }
    expect((await readUser(ctx.admin, user.id)).active).toBe(true);
    expectError(await ctx.admin.put(usersPath, { body }), 400, 'invalid_request');
    expect((await readUser(ctx.admin, user.id)).active).toBe(false);
    const refused = await passwordGrant(ctx.server.url, user.userName, testPassword);
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'invalid_grant' });
  });
});

describe('Users_Get (myprofile)', () => {
  it('answers 200 with the calling user, for a user whose REST API role is User', async () => {
    const user = await createUser(ctx.admin, {
      userName: unique('me'),
      displayName: 'Me Myself',
      password: testPassword,
      claims: [{ type: roleClaimType, value: 'User' }],
    });
    const api = await userApi(ctx.server.url, user.userName);
    const response = await api.get<User>(`${usersPath}/myprofile`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(await readUser(ctx.admin, user.id));
  });

  it('answers 401 without a token and 403 for a user without a REST API role', async () => {
    expectError(await new Api(ctx.server.url).get(`${usersPath}/myprofile`), 401, 'unauthorized');
    const user = await createUser(ctx.admin, { userName: unique('norole'), password: testPassword });
    const api = await userApi(ctx.server.url, user.userName);
    expectError(await api.get(`${usersPath}/myprofile`), 403, 'forbidden');
  });
});

describe('roles on every Users_* operation', () => {
  it('answers 401 unauthorized to every operation without a token', async () => {
    const anonymous = new Api(ctx.server.url);
    for (const [operationId, method, path] of userOperations) {
      const response = await anonymous.request(method, path);
      expect({ operationId, status: response.status }).toEqual({ operationId, status: 401 });
      expectError(response, 401, 'unauthorized');
    }
  });

  it('answers 403 forbidden to a User-role token on every operation but myprofile', async () => {
    const user = await createUser(ctx.admin, {
      userName: unique('plain'),
      password: testPassword,
      claims: [{ type: roleClaimType, value: 'User' }],
    });
    const api = await userApi(ctx.server.url, user.userName);
    for (const [operationId, method, path] of userOperations.filter(([id]) => id !== 'Users_Get')) {
      const response = await api.request(method, path);
      expect({ operationId, status: response.status }).toEqual({ operationId, status: 403 });
      expectError(response, 403, 'forbidden');
    }
  });

  it('lets an Observer read users but answers 403 to its writes and creates nothing', async () => {
    const user = await createUser(ctx.admin, {
      userName: unique('observer'),
      password: testPassword,
      claims: [{ type: roleClaimType, value: 'Observer' }],
    });
    const api = await userApi(ctx.server.url, user.userName);
    expect((await api.get(usersPath)).status).toBe(200);
    expect((await api.get(`${usersPath}/${user.id}`)).status).toBe(200);
    expect((await api.get(`${usersPath}/.filter`, { query: { filter: 'userName eq "admin"' } })).status).toBe(200);
    const userName = unique('notcreated');
    expectError(await api.post(usersPath, { body: { userName } }), 403, 'forbidden');
    expectError(
      await api.put(usersPath, { body: { id: user.id, userName: user.userName, active: false } }),
      403,
      'forbidden',
    );
    expectError(await api.delete(`${usersPath}/${user.id}`), 403, 'forbidden');
    expect(await userNamesWhere(ctx.admin, `userName eq "${userName}"`)).toEqual([]);
    expect((await readUser(ctx.admin, user.id)).active).toBe(true);
  });
});
