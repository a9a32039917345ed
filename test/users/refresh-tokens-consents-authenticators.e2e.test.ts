import { describe, expect, it } from 'vitest';
import { type ApiResponse, type Json, passwordGrant, testPassword, totalCount, unique } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { serverPerFile, unknownGuid } from '../helpers/fixtures.js';
import { createUser, type User, usersPath } from './support.js';

const ctx = serverPerFile();
const refreshTokensPath = `${usersPath}/refreshtoken`;
const consentPath = `${usersPath}/consent`;
const authenticatorsPath = `${usersPath}/authenticators`;
const resetPath = `${usersPath}/resetauthenticator`;
const onboardPath = `${usersPath}/onboardauthenticator`;
/** A base32 TOTP secret of 32 characters. */
const secretCode = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

function someone(): Promise<User> {
  return createUser(ctx.admin, { userName: unique('holder'), password: testPassword });
}

/** A refresh token of the user from the password grant (scope offline_access). */
async function refreshTokenOf(userName: string): Promise<string> {
  const response = await passwordGrant(ctx.server.url, userName, testPassword);
  const token = response.body.refresh_token;
  if (response.status !== 200 || typeof token !== 'string') {
    throw new Error(`password grant for ${userName}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return token;
}

/** Posts the refresh_token grant. */
async function refreshGrant(refreshToken: string): Promise<ApiResponse<Json>> {
  const response = await fetch(new URL('/runtime/oauth2/token.idp', ctx.server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'idsvc-cli', refresh_token: refreshToken }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

function listTokens(userId: string, query: Record<string, string | number> = {}) {
  return ctx.admin.get<Json[]>(refreshTokensPath, { query: { userId, ...query } });
}

describe('Users_GetAllRefreshToken', () => {
  it('lists the valid refresh tokens of the user, without the token values', async () => {
    const user = await someone();
    const token = await refreshTokenOf(user.userName);
    const response = await listTokens(user.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: expect.any(String),
        userId: user.id,
        clientId: 'idsvc-cli',
        creationDate: expect.any(String),
        expirationDate: expect.any(String),
        refreshTokenExpirationDate: expect.any(String),
        scope: 'identify*scim offline_access',
      },
    ]);
    expect(totalCount(response)).toBe(1);
    expect(JSON.stringify(response.body)).not.toContain(token);
  });

  it('answers 200 [] for a user without refresh tokens', async () => {
    const user = await someone();
    const response = await listTokens(user.id);
    expect({ status: response.status, body: response.body, total: totalCount(response) }).toEqual({
      status: 200,
      body: [],
      total: 0,
    });
  });

  it('lists a rotated token no more, and its successor instead', async () => {
    const user = await someone();
    const first = await refreshTokenOf(user.userName);
    const [before] = (await listTokens(user.id)).body;
    const rotated = await refreshGrant(first);
    expect(rotated.status).toBe(200);
    const after = (await listTokens(user.id)).body;
    expect(after).toHaveLength(1);
    expect(after[0].id).not.toBe(before.id);
  });

  it('pages and sorts by creationDate Descending', async () => {
    const user = await someone();
    for (let i = 0; i < 3; i++) await refreshTokenOf(user.userName);
    const all = (await listTokens(user.id, { sortBy: 'creationDate' })).body;
    expect(all).toHaveLength(3);
    const descending = await listTokens(user.id, { sortBy: 'creationDate', sortOrder: 'Descending', pageSize: 2 });
    expect(descending.body.map((t) => t.id)).toEqual([all[2].id, all[1].id]);
    expect(totalCount(descending)).toBe(3);
  });

  it('answers 404 for an unknown user and 400 without a userId or for one that is not a GUID', async () => {
    expectError(await listTokens(unknownGuid), 404, 'not_found');
    expectError(await ctx.admin.get(refreshTokensPath), 400, 'invalid_request');
    expectError(await listTokens('not-a-guid'), 400, 'invalid_request');
  });
});

describe('Users_DeleteRefreshToken', () => {
  it('revokes the token (200): it is no longer listed and the refresh grant refuses it', async () => {
    const user = await someone();
    const kept = await refreshTokenOf(user.userName);
    const revoked = await refreshTokenOf(user.userName);
    expect((await listTokens(user.id)).body).toHaveLength(2);
    const response = await ctx.admin.delete(refreshTokensPath, { query: { refreshToken: revoked } });
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: '' });
    expect((await listTokens(user.id)).body).toHaveLength(1);
    const refused = await refreshGrant(revoked);
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'invalid_grant' });
    expect((await refreshGrant(kept)).status).toBe(200);
  });

  it('answers 200 for a token that does not exist, and 400 without the refreshToken parameter', async () => {
    const response = await ctx.admin.delete(refreshTokensPath, { query: { refreshToken: 'no-such-token' } });
    expect(response.status).toBe(200);
    expectError(await ctx.admin.delete(refreshTokensPath), 400, 'invalid_request');
  });
});

describe('Users_GetConsent and Users_DeleteConsent', () => {
  it('answers 200 [] for a user who gave no consent', async () => {
    const user = await someone();
    const response = await ctx.admin.get(consentPath, { query: { userId: user.id } });
    expect({ status: response.status, body: response.body, total: totalCount(response) }).toEqual({
      status: 200,
      body: [],
      total: 0,
    });
  });

  it('lists 404 for an unknown user and 400 without a userId', async () => {
    expectError(await ctx.admin.get(consentPath, { query: { userId: unknownGuid } }), 404, 'not_found');
    expectError(await ctx.admin.get(consentPath), 400, 'invalid_request');
  });

  it('deletes with 200 for a user and a connection that exist (even without a consent)', async () => {
    const user = await someone();
    const response = await ctx.admin.delete(consentPath, { query: { userId: user.id, connectionName: 'idsvc-cli' } });
    expect(response.status).toBe(200);
    expect((await ctx.admin.get(consentPath, { query: { userId: user.id } })).body).toEqual([]);
  });

  it('deletes with 404 for an unknown user or connection, and 400 for missing parameters', async () => {
    const user = await someone();
    const unknownUser = { userId: unknownGuid, connectionName: 'idsvc-cli' };
    const unknownConnection = { userId: user.id, connectionName: unique('noconnection') };
    expectError(await ctx.admin.delete(consentPath, { query: unknownUser }), 404, 'not_found');
    expectError(await ctx.admin.delete(consentPath, { query: unknownConnection }), 404, 'not_found');
    expectError(await ctx.admin.delete(consentPath, { query: { userId: user.id } }), 400, 'invalid_request');
    expectError(
      await ctx.admin.delete(consentPath, { query: { connectionName: 'idsvc-cli' } }),
      400,
      'invalid_request',
    );
  });
});

describe('Users_GetAuthenticators, Users_ResetAuthenticator and Users_OnboardAuthenticator', () => {
  it('lists 200 [] while no second-factor connection offers enrolment from the profile page', async () => {
    const user = await someone();
    const response = await ctx.admin.get(authenticatorsPath, { query: { userId: user.id } });
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: [] });
  });

  it('lists 404 for an unknown user and 400 without a userId', async () => {
    expectError(await ctx.admin.get(authenticatorsPath, { query: { userId: unknownGuid } }), 404, 'not_found');
    expectError(await ctx.admin.get(authenticatorsPath), 400, 'invalid_request');
  });

  it('resets and onboards with 404 for a connection that is not a second-factor connection, or an unknown user', async () => {
    const user = await someone();
    for (const connectionName of [unique('nosecondfactor'), 'UsernamePassword']) {
      const query = { userId: user.id, connectionName };
      expectError(await ctx.admin.delete(resetPath, { query }), 404, 'not_found');
      expectError(await ctx.admin.post(onboardPath, { query: { ...query, secretCode } }), 404, 'not_found');
    }
    const query = { userId: unknownGuid, connectionName: 'UsernamePassword' };
    expectError(await ctx.admin.delete(resetPath, { query }), 404, 'not_found');
    expectError(await ctx.admin.post(onboardPath, { query: { ...query, secretCode } }), 404, 'not_found');
    expect((await ctx.admin.get(authenticatorsPath, { query: { userId: user.id } })).body).toEqual([]);
  });

  it('onboards with 400 for a secret code that is not base32 or missing parameters', async () => {
    const user = await someone();
    const query = { userId: user.id, connectionName: 'Totp' };
    expectError(
      await ctx.admin.post(onboardPath, { query: { ...query, secretCode: 'not base32!' } }),
      400,
      'invalid_request',
    );
    expectError(await ctx.admin.post(onboardPath, { query }), 400, 'invalid_request');
    expectError(await ctx.admin.delete(resetPath, { query: { userId: user.id } }), 400, 'invalid_request');
  });
});
