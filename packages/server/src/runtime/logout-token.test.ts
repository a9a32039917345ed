import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { createTestClient } from '../test-support/fixtures.js';
import { findClient, type OAuthClient } from './clients.js';
import { runtimeDefaults } from './defaults.js';
import { issueIdToken } from './id-token.js';
import { BACKCHANNEL_LOGOUT_EVENT, issueLogoutToken } from './logout-token.js';

const issuer = 'http://127.0.0.1:0/runtime/oauth2';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ keys: { algorithms: ['RS256', 'ES256'] } });
});
afterAll(() => ctx.close());

async function clientWith(configuration: Record<string, unknown> = {}, clientSecret?: string) {
  const created = await createTestClient(ctx.db, ctx.box, {
    configuration,
    ...(clientSecret !== undefined ? { clientSecret } : {}),
  });
  return { client: (await findClient(ctx.db, created.clientId)) as OAuthClient, secret: created.clientSecret };
}

describe('logout token (OpenID Connect Back-Channel Logout 1.0 §2.4)', () => {
  it('is typed logout+jwt and carries iss, aud, iat, exp, a fresh jti, sub, sid and the event, no nonce', async () => {
    const { client } = await clientWith();
    const sessionId = randomUUID();
    const token = await issueLogoutToken(ctx, client, { subject: 'user-1', sessionId });
    const jwks = createLocalJWKSet(await ctx.keys.jwks());
    const { payload, protectedHeader } = await jwtVerify(token, jwks, {
      issuer,
      audience: client.clientId,
      typ: 'logout+jwt',
      algorithms: ['RS256'],
    });
    expect(protectedHeader).toEqual({ alg: 'RS256', kid: expect.any(String), typ: 'logout+jwt' });
    expect(payload).toEqual({
      iss: issuer,
      aud: client.clientId,
      sub: 'user-1',
      sid: sessionId,
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      iat: expect.any(Number),
      exp: expect.any(Number),
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(payload.exp! - payload.iat!).toBe(runtimeDefaults.logoutTokenLifetime);
    const again = decodeJwt(await issueLogoutToken(ctx, client, { subject: 'user-1', sessionId }));
    expect(again.jti).not.toBe(payload.jti);
  });

  it('is signed as the client ID tokens are: ES256 with the server key, HS256 with the client secret', async () => {
    const es = await clientWith({ signingAlgorithm: 'ES256' });
    const hs = await clientWith({ signingAlgorithm: 'HS256' }, 's'.repeat(32));
    const jwks = createLocalJWKSet(await ctx.keys.jwks());
    for (const { client, secret } of [es, hs]) {
      const logout = await issueLogoutToken(ctx, client, { subject: 'user-1', sessionId: randomUUID() });
      const id = await issueIdToken(ctx, client, { claims: { sub: 'user-1' }, authTime: new Date() });
      const { alg, kid } = decodeProtectedHeader(id);
      expect(decodeProtectedHeader(logout)).toEqual({ alg, typ: 'logout+jwt', ...(kid ? { kid } : {}) });
      const options = { issuer, audience: client.clientId, typ: 'logout+jwt' };
      const verified =
        alg === 'HS256'
          ? await jwtVerify(logout, new TextEncoder().encode(secret), options)
          : await jwtVerify(logout, jwks, options);
      expect(verified.protectedHeader.alg).toBe(client.configuration.signingAlgorithm);
    }
  });

  it('leaves sub out when the subject is not known, the sid naming the session', async () => {
    const { client } = await clientWith();
    const sessionId = randomUUID();
    const payload = decodeJwt(await issueLogoutToken(ctx, client, { sessionId }));
    expect(payload.sub).toBeUndefined();
    expect(payload.sid).toBe(sessionId);
  });
});
