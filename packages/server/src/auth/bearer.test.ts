import { eq } from 'drizzle-orm';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokedAccessTokens, users } from '../db/schema/index.js';
import { ApiError } from '../http/api-error.js';
import { issueAccessToken } from '../runtime/access-token.js';
import { findClient } from '../runtime/clients.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { createTestClient, createTestUser } from '../test-support/fixtures.js';
import { authenticate, hasRole } from './bearer.js';

const issuer = 'http://127.0.0.1:0/runtime/oauth2';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

function userToken(userId: string, roles: unknown, expiresInSeconds = 300) {
  return ctx.keys.sign(
    { client_id: 'idsvc-cli', 'urn:internal:userid': userId, 'urn:identify:rest-api:role': roles },
    { issuer, subject: userId, audience: 'idsvc-cli', expiresInSeconds },
  );
}

async function rejection(authorization: string | undefined): Promise<ApiError> {
  const error = await authenticate(ctx, authorization).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(401);
  return error as ApiError;
}

describe('authenticate', () => {
  it('reads the user, client and known roles of a good token', async () => {
    const user = await createTestUser(ctx.db);
    const token = await userToken(user.id, ['Observer', 'Superhero', 'User']);
    expect(await authenticate(ctx, `Bearer ${token}`)).toEqual({
      subject: user.id,
      userId: user.id,
      clientId: 'idsvc-cli',
      roles: ['Observer', 'User'],
    });
    expect((await authenticate(ctx, `bearer ${await userToken(user.id, 'Administrator')}`)).roles).toEqual([
      'Administrator',
    ]);
  });

  it("reads a client's own token, without a user", async () => {
    const token = await ctx.keys.sign(
      { client_id: 'pipeline', 'urn:identify:rest-api:role': 'Observer' },
      { issuer, subject: 'pipeline', audience: 'pipeline', expiresInSeconds: 300 },
    );
    expect(await authenticate(ctx, `Bearer ${token}`)).toEqual({
      subject: 'pipeline',
      clientId: 'pipeline',
      roles: ['Observer'],
    });
  });

  it('accepts a token signed with an HMAC client secret', async () => {
    const { clientId } = await createTestClient(ctx.db, ctx.box, {
      clientSecret: 's'.repeat(32),
      configuration: { signingAlgorithm: 'HS256', restApiRole: ['Observer'] },
    });
    const client = (await findClient(ctx.db, clientId))!;
    const { accessToken } = await issueAccessToken(ctx, client, { subject: clientId, scopes: [], roles: ['Observer'] });
    expect(await authenticate(ctx, `Bearer ${accessToken}`)).toEqual({
      subject: clientId,
      clientId,
      roles: ['Observer'],
    });
  });

  it('rejects a missing or malformed header', async () => {
    await rejection(undefined);
    await rejection('');
    await rejection('Basic YWRtaW46eA==');
    await rejection('Bearer not-a-jwt');
  });

  it('rejects an expired token, a foreign issuer and a token signed by another key', async () => {
    const user = await createTestUser(ctx.db);
    await rejection(`Bearer ${await userToken(user.id, 'Administrator', -5)}`);
    const elsewhere = await ctx.keys.sign(
      {},
      { issuer: 'http://evil.example/runtime/oauth2', subject: user.id, expiresInSeconds: 60 },
    );
    await rejection(`Bearer ${elsewhere}`);
    const foreign = await generateKeyPair('RS256');
    const [{ kid }] = (await ctx.keys.jwks()).keys;
    const forged = await new SignJWT({ 'urn:identify:rest-api:role': 'Administrator' })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(issuer)
      .setSubject('attacker')
      .setExpirationTime('5m')
      .sign(foreign.privateKey);
    await rejection(`Bearer ${forged}`);
    const hmacForged = await new SignJWT({ client_id: 'idsvc-cli', 'urn:identify:rest-api:role': 'Administrator' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer)
      .setSubject('attacker')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('x'.repeat(32)));
    await rejection(`Bearer ${hmacForged}`);
  });

  it('rejects the token of a locked, inactive or deleted user', async () => {
    const locked = await createTestUser(ctx.db, { locked: true });
    expect((await rejection(`Bearer ${await userToken(locked.id, 'Administrator')}`)).message).toBe(
      'the user is locked',
    );
    const inactive = await createTestUser(ctx.db, { active: false });
    expect((await rejection(`Bearer ${await userToken(inactive.id, 'Administrator')}`)).message).toBe(
      'the user is inactive',
    );
    const gone = await createTestUser(ctx.db);
    const token = await userToken(gone.id, 'Administrator');
    await ctx.db.delete(users).where(eq(users.id, gone.id));
    await rejection(`Bearer ${token}`);
  });

  it('rejects a revoked token', async () => {
    const user = await createTestUser(ctx.db);
    const token = await userToken(user.id, 'User');
    const { jti } = await ctx.keys.verify(token, issuer);
    await ctx.db.insert(revokedAccessTokens).values({ jti: jti!, expiresAt: new Date(Date.now() + 300_000) });
    expect((await rejection(`Bearer ${token}`)).message).toBe('the token was revoked');
  });
});

describe('hasRole', () => {
  it('lets Administrator do everything', () => {
    for (const required of ['User', 'Observer', 'Administrator'] as const) {
      expect(hasRole({ roles: ['Administrator'] }, required, 'DELETE')).toBe(true);
    }
  });

  it('lets Observer do Observer operations and User reads, not Administrator operations', () => {
    expect(hasRole({ roles: ['Observer'] }, 'Observer')).toBe(true);
    expect(hasRole({ roles: ['Observer'] }, 'User')).toBe(true);
    expect(hasRole({ roles: ['Observer'] }, 'User', 'GET')).toBe(true);
    expect(hasRole({ roles: ['Observer'] }, 'User', 'PUT')).toBe(false);
    expect(hasRole({ roles: ['Observer'] }, 'Administrator')).toBe(false);
  });

  it('lets User do only User operations, and no roles nothing', () => {
    expect(hasRole({ roles: ['User'] }, 'User', 'PUT')).toBe(true);
    expect(hasRole({ roles: ['User'] }, 'Observer')).toBe(false);
    expect(hasRole({ roles: ['User'] }, 'Administrator')).toBe(false);
    expect(hasRole({ roles: [] }, 'User')).toBe(false);
  });
});
