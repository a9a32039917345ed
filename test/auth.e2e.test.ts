import { describe, expect, it } from 'vitest';
import {
  Api,
  apiBase,
  createUserWithRole,
  type Json,
  passwordGrant,
  testPassword,
  unique,
  userApi,
} from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, serverPerFile, unknownGuid } from './helpers/fixtures.js';

const groups = `${apiBase}/groups`;
const ctx = serverPerFile();

/** The same token with one character of its signature changed. */
function tampered(token: string): string {
  const at = token.lastIndexOf('.') + 5;
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
}

describe('admin API without a valid token', () => {
  it('answers 401 unauthorized with WWW-Authenticate: Bearer when no token is sent', async () => {
    const response = await new Api(ctx.server.url).get(groups);
    expectError(response, 401, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  });

  it('answers 401 for a garbage token, a wrongly signed token and another scheme', async () => {
    for (const token of ['garbage', 'a.b.c', tampered(ctx.admin.token!)]) {
      const response = await new Api(ctx.server.url, token).get(groups);
      expectError(response, 401, 'unauthorized');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    }
    const basic = await new Api(ctx.server.url).get(groups, { headers: { authorization: 'Basic YWRtaW46eA==' } });
    expectError(basic, 401, 'unauthorized');
  });

  it('keeps /healthz and the OpenAPI document public', async () => {
    const anonymous = new Api(ctx.server.url);
    expect((await anonymous.get('/healthz')).status).toBe(200);
    expect((await anonymous.get(`${apiBase}/openapi.json`)).status).toBe(200);
  });
});

describe('REST API roles', () => {
  it('lets an Observer read groups but not create one (403 forbidden, nothing created)', async () => {
    const user = await createUserWithRole(ctx.admin, unique('observer'), 'Observer');
    const observer = await userApi(ctx.server.url, user.userName);
    expect((await observer.get(groups)).status).toBe(200);
    const name = unique('notcreated');
    expectError(await observer.post(groups, { body: { name } }), 403, 'forbidden');
    expectError(await ctx.admin.get(`${groups}/${name}`), 404, 'not_found');
  });

  it('lets a User read only its own profile', async () => {
    const user = await createUserWithRole(ctx.admin, unique('plain'), 'User');
    const api = await userApi(ctx.server.url, user.userName);
    const profile = await api.get(`${apiBase}/users/myprofile`);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ id: user.id, userName: user.userName });
    expectError(await api.get(groups), 403, 'forbidden');
  });

  it('answers 403 to a valid token of a user without a REST API role', async () => {
    const user = await created(ctx.admin, 'users', { userName: unique('norole'), password: testPassword });
    const api = await userApi(ctx.server.url, String(user.userName));
    expectError(await api.get(groups), 403, 'forbidden');
  });
});

describe('lockout after failed password checks', () => {
  const lockedUsers = `${apiBase}/lockedusers`;
  const failTimes = async (userName: string, times: number) => {
    for (let i = 0; i < times; i++) {
      const response = await passwordGrant(ctx.server.url, userName, 'wrong-password');
      expect({ status: response.status, error: response.body.error }).toEqual({ status: 400, error: 'invalid_grant' });
    }
  };

  it('locks after 10 failures, refuses the right password and the old token, and unlocks through PATCH', async () => {
    const user = await createUserWithRole(ctx.admin, unique('victim'), 'Observer');
    const api = await userApi(ctx.server.url, user.userName);
    await failTimes(user.userName, 10);

    const locked = await ctx.admin.get<Json[]>(lockedUsers);
    expect(locked.status).toBe(200);
    expect(locked.body.find((item) => item.id === user.id)).toMatchObject({ userName: user.userName, locked: true });
    const refused = await passwordGrant(ctx.server.url, user.userName, testPassword);
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'invalid_grant' });
    expectError(await api.get(groups), 401, 'unauthorized');

    expect((await ctx.admin.patch(lockedUsers, { body: { userId: user.id } })).status).toBe(200);
    expect((await ctx.admin.get(`${apiBase}/users/${user.id}`)).body.locked).toBe(false);
    const after = await ctx.admin.get<Json[]>(lockedUsers);
    expect(after.status === 404 || after.body.every((item) => item.id !== user.id), JSON.stringify(after.body)).toBe(
      true,
    );
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(200);
  });

  it('resets the count of failures on a success', async () => {
    const user = await createUserWithRole(ctx.admin, unique('forgetful'), 'Observer');
    await failTimes(user.userName, 9);
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(200);
    await failTimes(user.userName, 9);
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(200);
    expect((await ctx.admin.get(`${apiBase}/users/${user.id}`)).body.locked).toBe(false);
  });

  it('answers 404 when unlocking an unknown user and 400 for an id that is not a GUID', async () => {
    expectError(await ctx.admin.patch(lockedUsers, { body: { userId: unknownGuid } }), 404, 'not_found');
    expectError(await ctx.admin.patch(lockedUsers, { body: { userId: 'nope' } }), 400, 'invalid_request');
  });
});
