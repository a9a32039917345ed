import { eq } from 'drizzle-orm';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens, userClaims, users } from '../db/schema/index.js';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../test-support/context.js';
import { createTestClient, createTestUser } from '../test-support/fixtures.js';
import { tokenRoute } from './token-endpoint.js';

const issuer = 'http://127.0.0.1:0/runtime/oauth2';
let ctx: TestContext;
let app: ReturnType<typeof tokenRoute>;

beforeAll(async () => {
  ctx = await createTestContext();
  app = tokenRoute(ctx);
});
afterAll(() => ctx.close());

async function token(form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await app.request('/runtime/oauth2/token.idp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const passwordForm = (username: string, password: string, scope = 'identify*scim offline_access') => ({
  grant_type: 'password',
  client_id: 'idsvc-cli',
  username,
  password,
  scope,
});

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('password grant', () => {
  it('issues an access token with the user and role claims, and a refresh token for offline_access', async () => {
    const res = await token(passwordForm('ADMIN', TEST_ADMIN_PASSWORD));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'identify*scim offline_access' });
    const [admin] = await ctx.db.select().from(users).where(eq(users.userName, 'admin'));
    const claims = await ctx.keys.verify(res.body.access_token as string, issuer);
    expect(claims).toMatchObject({
      iss: issuer,
      sub: admin.id,
      aud: 'idsvc-cli',
      client_id: 'idsvc-cli',
      scope: 'identify*scim offline_access',
      'urn:internal:userid': admin.id,
      'urn:identify:rest-api:role': 'Administrator',
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    const [stored] = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.userId, admin.id));
    expect(stored.tokenHash).not.toBe(res.body.refresh_token);
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('issues no refresh token without offline_access', async () => {
    const res = await token(passwordForm('admin', TEST_ADMIN_PASSWORD, 'identify*scim'));
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeUndefined();
    expect(res.body.scope).toBe('identify*scim');
  });

  it('answers invalid_grant for a wrong password and for an unknown user', async () => {
    for (const [user, password] of [
      ['admin', 'wrong'],
      ['nobody', 'x'],
    ]) {
      const res = await token(passwordForm(user, password));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_grant', error_description: 'the user name or password is incorrect' });
    }
  });

  it('answers invalid_scope for a scope the client may not ask for', async () => {
    const res = await token(passwordForm('admin', TEST_ADMIN_PASSWORD, 'identify*scim phone'));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_scope');
  });

  it('locks the user after 10 failures; the right password then fails too', async () => {
    const user = await createTestUser(ctx.db, { userName: 'guesser-target', password: 'right-password-1' });
    for (let i = 0; i < 10; i++) {
      expect((await token(passwordForm('guesser-target', `wrong-${i}`))).body.error).toBe('invalid_grant');
    }
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.locked).toBe(true);
    expect(row.failedLoginCount).toBe(10);
    expect(row.lockedAt).toBeInstanceOf(Date);
    const res = await token(passwordForm('guesser-target', 'right-password-1'));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('answers invalid_client when the password must be reset or has expired', async () => {
    await createTestUser(ctx.db, { userName: 'must-reset', password: 'pw-must-reset', forceResetPassword: true });
    await createTestUser(ctx.db, {
      userName: 'expired',
      password: 'pw-expired',
      passwordExpiresAt: new Date(Date.now() - 1000),
    });
    for (const [user, password] of [
      ['must-reset', 'pw-must-reset'],
      ['expired', 'pw-expired'],
    ]) {
      const res = await token(passwordForm(user, password));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_client', error_description: "the user's password is not active" });
    }
    expect((await token(passwordForm('expired', 'wrong'))).body.error).toBe('invalid_grant');
  });
});

describe('refresh_token grant', () => {
  it('rotates the token, rereads the roles, and revokes the family when a spent token comes back', async () => {
    const user = await createTestUser(ctx.db, { userName: 'refresher', password: 'refresher-pw', roles: ['User'] });
    const first = await token(passwordForm('refresher', 'refresher-pw'));
    expect((await ctx.keys.verify(first.body.access_token as string, issuer))['urn:identify:rest-api:role']).toBe(
      'User',
    );
    await ctx.db.insert(userClaims).values({ userId: user.id, type: 'urn:identify:rest-api:role', value: 'Observer' });

    const refresh = {
      grant_type: 'refresh_token',
      client_id: 'idsvc-cli',
      refresh_token: first.body.refresh_token as string,
    };
    const second = await token(refresh);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).toEqual(expect.any(String));
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(second.body.scope).toBe('identify*scim offline_access');
    const claims = await ctx.keys.verify(second.body.access_token as string, issuer);
    expect(claims['urn:identify:rest-api:role']).toEqual(['User', 'Observer']);
    expect(claims.sub).toBe(user.id);

    const reused = await token(refresh);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    const family = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(family).toHaveLength(2);
    expect(new Set(family.map((t) => t.familyId)).size).toBe(1);
    expect(family.every((t) => t.revokedAt instanceof Date)).toBe(true);
    const afterReuse = await token({ ...refresh, refresh_token: second.body.refresh_token as string });
    expect(afterReuse.body.error).toBe('invalid_grant');
  });

  it('refuses a refresh for a locked user, an unknown token and an expired token', async () => {
    const user = await createTestUser(ctx.db, { userName: 'soon-locked', password: 'soon-locked-pw' });
    const first = await token(passwordForm('soon-locked', 'soon-locked-pw'));
    await ctx.db.update(users).set({ locked: true }).where(eq(users.id, user.id));
    const refresh = {
      grant_type: 'refresh_token',
      client_id: 'idsvc-cli',
      refresh_token: first.body.refresh_token as string,
    };
    expect((await token(refresh)).body.error).toBe('invalid_grant');
    expect((await token({ ...refresh, refresh_token: 'not-a-token' })).body.error).toBe('invalid_grant');

    await ctx.db.update(users).set({ locked: false }).where(eq(users.id, user.id));
    await ctx.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.userId, user.id));
    expect((await token(refresh)).body).toEqual({
      error: 'invalid_grant',
      error_description: 'the refresh token has expired',
    });
  });
});

describe('client_credentials grant', () => {
  it('issues a token for the client itself with its configured role, through the basic header or the form', async () => {
    const { clientId, clientSecret } = await createTestClient(ctx.db, ctx.box, {
      configuration: { restApiRole: 'Observer', accessTokenLifetime: 600 },
    });
    const viaHeader = await token(
      { grant_type: 'client_credentials', scope: 'openid' },
      { Authorization: basic(clientId, clientSecret!) },
    );
    const viaForm = await token({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret!,
      scope: 'offline_access',
    });
    for (const res of [viaHeader, viaForm]) {
      expect(res.status).toBe(200);
      expect(res.body.refresh_token).toBeUndefined();
      expect(res.body.expires_in).toBe(600);
      const claims = await ctx.keys.verify(res.body.access_token as string, issuer);
      expect(claims).toMatchObject({ sub: clientId, client_id: clientId, 'urn:identify:rest-api:role': 'Observer' });
      expect(claims['urn:internal:userid']).toBeUndefined();
    }
  });

  it('answers 401 invalid_client for a wrong secret, with a Basic challenge when the header was used', async () => {
    const { clientId } = await createTestClient(ctx.db, ctx.box);
    const viaHeader = await token({ grant_type: 'client_credentials' }, { Authorization: basic(clientId, 'wrong') });
    expect(viaHeader.status).toBe(401);
    expect(viaHeader.body).toEqual({ error: 'invalid_client', error_description: 'client authentication failed' });
    expect(viaHeader.headers.get('www-authenticate')).toBe('Basic realm="idsvc"');
    const viaForm = await token({ grant_type: 'client_credentials', client_id: clientId, client_secret: 'wrong' });
    expect(viaForm.status).toBe(401);
    expect(viaForm.headers.get('www-authenticate')).toBeNull();
    const unknown = await token({ grant_type: 'client_credentials', client_id: 'no-such-client', client_secret: 'x' });
    expect(unknown.status).toBe(401);
  });

  it('signs with the client secret for an HMAC client', async () => {
    const secret = 'k'.repeat(48);
    const { clientId } = await createTestClient(ctx.db, ctx.box, {
      clientSecret: secret,
      configuration: { signingAlgorithm: 'HS384', restApiRole: 'Administrator' },
    });
    const res = await token({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
    expect(res.status).toBe(200);
    expect(decodeProtectedHeader(res.body.access_token as string)).toEqual({ alg: 'HS384', typ: 'JWT' });
  });

  it('refuses a grant type the client is not allowed', async () => {
    const res = await token({ grant_type: 'client_credentials', client_id: 'idsvc-cli' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unauthorized_client');
  });
});

describe('token endpoint requests', () => {
  it('answers unsupported_grant_type for an unknown grant', async () => {
    const res = await token({ grant_type: 'urn:example:magic', client_id: 'idsvc-cli' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'grant_type urn:example:magic is not supported',
    });
  });

  it('answers invalid_request for missing or repeated parameters and a JSON body', async () => {
    expect((await token({ client_id: 'idsvc-cli' })).body).toEqual({
      error: 'invalid_request',
      error_description: 'grant_type is required',
    });
    expect(
      (await token({ grant_type: 'password', client_id: 'idsvc-cli', username: 'admin' })).body.error_description,
    ).toBe('password is required');
    const repeated = await app.request('/runtime/oauth2/token.idp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&grant_type=client_credentials',
    });
    expect(await repeated.json()).toEqual({
      error: 'invalid_request',
      error_description: 'grant_type is given more than once',
    });
    const json = await app.request('/runtime/oauth2/token.idp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"grant_type":"password"}',
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
  });
});
