import { describe, expect, it } from 'vitest';
import { type Json, passwordGrant, roleClaimType, testPassword, unique, userApi } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { serverPerFile, unknownGuid } from '../helpers/fixtures.js';
import { batchPath, createUser, lockedUsersPath, readUser, type User, userNames, usersPath } from './support.js';

const ctx = serverPerFile();
const statusPath = `${usersPath}/.batchStatus`;

function observer(active = true): Promise<User> {
  return createUser(ctx.admin, {
    userName: unique('status'),
    email: `${unique('s')}@example.com`,
    password: testPassword,
    active,
    claims: [{ type: roleClaimType, value: 'Observer' }],
  });
}

/** Fails the password grant `times` times with a wrong password. */
async function failLogins(userName: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const response = await passwordGrant(ctx.server.url, userName, 'wrong-password');
    expect({ status: response.status, error: response.body.error }).toEqual({ status: 400, error: 'invalid_grant' });
  }
}

describe('Users_PutMassStatus', () => {
  it('sets active of users named by userName, email, id and a claim, and answers 200 with the items', async () => {
    const [a, b, c, d] = [await observer(), await observer(false), await observer(), await observer(false)];
    const nickname = unique('Nick');
    const tagged = await ctx.admin.put(usersPath, {
      body: { id: d.id, userName: d.userName, claims: [{ type: 'nickname', value: nickname }] },
    });
    expect(tagged.status).toBe(200);
    const body = [
      { identityClaim: { type: 'userName', value: a.userName.toUpperCase() }, active: false },
      { identityClaim: { type: 'email', value: b.email!.toUpperCase() }, active: true },
      { identityClaim: { type: 'id', value: c.id }, active: false },
      { identityClaim: { type: 'nickname', value: nickname.toLowerCase() }, active: true },
    ];
    const response = await ctx.admin.put(statusPath, { body });
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body });
    const after = await Promise.all([a, b, c, d].map((user) => readUser(ctx.admin, user.id)));
    expect(after.map((user) => user.active)).toEqual([false, true, false, true]);
  });

  it('stops a deactivated user from getting a token and from using the one it has (401)', async () => {
    const user = await observer();
    const api = await userApi(ctx.server.url, user.userName);
    const body = [{ identityClaim: { type: 'userName', value: user.userName }, active: false }];
    expect((await ctx.admin.put(statusPath, { body })).status).toBe(200);
    expectError(await api.get(`${usersPath}/${user.id}`), 401, 'unauthorized');
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(400);
    body[0].active = true;
    expect((await ctx.admin.put(statusPath, { body })).status).toBe(200);
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(200);
  });

  it('answers 404 naming the items that name no user, and changes nothing', async () => {
    const user = await observer();
    const body = [
      { identityClaim: { type: 'id', value: user.id }, active: false },
      { identityClaim: { type: 'userName', value: unique('nobody') }, active: false },
      { identityClaim: { type: 'email', value: 'nobody@example.com' }, active: false },
    ];
    const response = await ctx.admin.put(statusPath, { body });
    expectError(response, 404, 'not_found');
    expect((response.body as Json).details).toEqual([
      expect.objectContaining({ index: 1, identityClaim: body[1].identityClaim }),
      expect.objectContaining({ index: 2, identityClaim: body[2].identityClaim }),
    ]);
    expect((await readUser(ctx.admin, user.id)).active).toBe(true);
  });

  it('answers 400 when an identity claim names more than one user, and changes nothing', async () => {
    const value = unique('shared');
    const one = await observer();
    const two = await observer();
    for (const user of [one, two]) {
      const claims = [{ type: 'nickname', value }];
      expect((await ctx.admin.put(usersPath, { body: { id: user.id, userName: user.userName, claims } })).status).toBe(
        200,
      );
    }
    const body = [
      { identityClaim: { type: 'id', value: one.id }, active: false },
      { identityClaim: { type: 'nickname', value }, active: false },
    ];
    expectError(await ctx.admin.put(statusPath, { body }), 400, 'invalid_request');
    expect([(await readUser(ctx.admin, one.id)).active, (await readUser(ctx.admin, two.id)).active]).toEqual([
      true,
      true,
    ]);
  });

  it('answers 400 for an empty array, a missing identity claim or a status that is not a boolean', async () => {
    const user = await observer();
    const bodies = [
      [],
      [{ active: false }],
      [{ identityClaim: { type: 'id', value: user.id }, active: 'no' }],
      [{ identityClaim: { type: '', value: user.id }, active: false }],
      { identityClaim: { type: 'id', value: user.id }, active: false },
    ];
    for (const body of bodies) expectError(await ctx.admin.put(statusPath, { body }), 400, 'invalid_request');
    expect((await readUser(ctx.admin, user.id)).active).toBe(true);
  });
});

describe('Users_GetAllLockedUsers and Users_Patch (unlock)', () => {
  it('answers 404 while no user is locked', async () => {
    expectError(await ctx.admin.get(lockedUsersPath), 404, 'not_found');
  });

  it('lists a user locked by 10 failed logins, and PATCH unlocks it (200) so that its password works again', async () => {
    const user = await observer();
    await failLogins(user.userName, 10);
    const locked = await ctx.admin.get<User[]>(lockedUsersPath);
    expect(locked.status).toBe(200);
    expect(userNames(locked)).toEqual([user.userName]);
    expect(locked.body[0]).toMatchObject({ id: user.id, locked: true, active: true });
    expect((await readUser(ctx.admin, user.id)).locked).toBe(true);
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(400);

    const unlock = await ctx.admin.patch(lockedUsersPath, { body: { userId: user.id } });
    expect({ status: unlock.status, body: unlock.body }).toEqual({ status: 200, body: '' });
    expect((await readUser(ctx.admin, user.id)).locked).toBe(false);
    expectError(await ctx.admin.get(lockedUsersPath), 404, 'not_found');
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(200);
  });

  it('clears the failure count on unlock: 9 more failures do not lock again', async () => {
    const user = await observer();
    await failLogins(user.userName, 10);
    expect((await ctx.admin.patch(lockedUsersPath, { body: { userId: user.id } })).status).toBe(200);
    await failLogins(user.userName, 9);
    expect((await readUser(ctx.admin, user.id)).locked).toBe(false);
  });

  it('answers 409 conflict for a user that is not locked, 404 for an unknown user, 400 for a bad body', async () => {
    const user = await observer();
    expectError(await ctx.admin.patch(lockedUsersPath, { body: { userId: user.id } }), 409, 'conflict');
    expectError(await ctx.admin.patch(lockedUsersPath, { body: { userId: unknownGuid } }), 404, 'not_found');
    for (const body of [{ userId: 'not-a-guid' }, {}, [user.id]]) {
      expectError(await ctx.admin.patch(lockedUsersPath, { body }), 400, 'invalid_request');
    }
    expect((await readUser(ctx.admin, user.id)).locked).toBe(false);
  });
});

describe('Users_DeleteMassUser', () => {
  it('deletes the users that exist and reports each one it did not delete', async () => {
    const [a, b] = [await observer(), await observer()];
    const body = [a.id, unknownGuid, b.id.toUpperCase()];
    const response = await ctx.admin.delete(batchPath, { body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      deleted: expect.arrayContaining([a.id, b.id]),
      failed: [{ index: 1, id: unknownGuid, error: 'not_found', message: expect.any(String) }],
    });
    expect((response.body as { deleted: string[] }).deleted).toHaveLength(2);
    expectError(await ctx.admin.get(`${usersPath}/${a.id}`), 404, 'not_found');
    expectError(await ctx.admin.get(`${usersPath}/${b.id}`), 404, 'not_found');
  });

  it('answers 400 when nothing in the batch could be deleted (the spec rule for a batch where nothing succeeded)', async () => {
    const response = await ctx.admin.delete(batchPath, { body: [unknownGuid] });
    expectError(response, 400, 'invalid_request');
  });

  it('answers 400 for an id that is not a GUID or a body that is not an array, and deletes nothing', async () => {
    const user = await observer();
    for (const body of [[user.id, 'not-a-guid'], { id: user.id }, 'x']) {
      expectError(await ctx.admin.delete(batchPath, { body }), 400, 'invalid_request');
    }
    expect((await readUser(ctx.admin, user.id)).userName).toBe(user.userName);
  });
});

describe('Users_Delete', () => {
  it('deletes the user, answers 200, and answers 200 again once it is gone', async () => {
    const user = await createUser(ctx.admin, { userName: unique('del') });
    const response = await ctx.admin.delete(`${usersPath}/${user.id}`);
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: '' });
    expectError(await ctx.admin.get(`${usersPath}/${user.id}`), 404, 'not_found');
    expect((await ctx.admin.delete(`${usersPath}/${user.id}`)).status).toBe(200);
  });

  it('answers 400 for an id that is not a GUID', async () => {
    expectError(await ctx.admin.delete(`${usersPath}/not-a-guid`), 400, 'invalid_request');
  });

  it('makes the deleted user’s token useless (401)', async () => {
    const user = await createUser(ctx.admin, {
      userName: unique('gone'),
      password: testPassword,
      claims: [{ type: roleClaimType, value: 'User' }],
    });
    const api = await userApi(ctx.server.url, user.userName);
    expect((await api.get(`${usersPath}/myprofile`)).status).toBe(200);
    await ctx.admin.delete(`${usersPath}/${user.id}`);
    expectError(await api.get(`${usersPath}/myprofile`), 401, 'unauthorized');
  });
});
