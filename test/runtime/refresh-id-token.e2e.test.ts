import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, generators, Issuer, type TokenSet } from 'openid-client-v5';
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, signIn } from './agent.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  execSql,
  rowsOf,
  runtimeServerPerFile,
  testPassword,
} from './support.js';

// openid-client v5 checks a refreshed ID token itself: signature, issuer, audience, at_hash and the same `sub`
// as the ID token it refreshes.

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
let user: Awaited<ReturnType<typeof createUser>>;
let registered: CreatedClient;
let client: Client;

beforeAll(async () => {
  user = await createUser(rp.server);
  registered = await createClient(rp.server, {
    configuration: {
      redirectUris: [redirectUri],
      allowedGrantTypes: ['authorization_code', 'refresh_token', 'password'],
    },
  });
  const issuer = await Issuer.discover(rp.server.issuer);
  client = new issuer.Client({
    client_id: registered.clientId,
    client_secret: registered.clientSecret,
    redirect_uris: [redirectUri],
    response_types: ['code'],
  });
});

/** The code flow with PKCE for `scope`, signing in on the login page; the nonce is sent only with openid. */
async function codeFlow(
  scope: string,
  extra: Record<string, string> = {},
): Promise<{ tokens: TokenSet; nonce: string }> {
  const openid = scope.split(' ').includes('openid');
  const nonce = generators.nonce();
  const state = generators.state();
  const verifier = generators.codeVerifier();
  const url = client.authorizationUrl({
    scope,
    ...(openid ? { nonce } : {}),
    state,
    code_challenge: generators.codeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  const back = await signIn(new Agent(rp.server.url), url, user.userName, testPassword);
  const params = client.callbackParams(back.toString());
  const checks = { state, code_verifier: verifier, response_type: 'code' };
  // Without openid there is no ID token: the OAuth callback, which expects none.
  const tokens = openid
    ? await client.callback(redirectUri, params, { ...checks, nonce })
    : await client.oauthCallback(redirectUri, params, checks);
  return { tokens, nonce };
}

/** The claims that a refreshed ID token repeats from the first one (OpenID Connect Core §12.2). */
const original = (tokens: TokenSet) => {
  const { iss, sub, aud, azp, auth_time, acr, amr, sid } = tokens.claims();
  return { iss, sub, aud, azp, auth_time, acr, amr, sid };
};

describe('refresh_token grant of an openid grant', () => {
  it('returns a new ID token with the sub, aud, auth_time and acr of the first one, a later iat and no nonce', async () => {
    const acr = 'urn:idsvc:acr:gold';
    const { tokens: first, nonce } = await codeFlow('openid email offline_access', { acr_values: acr });
    const firstClaims = first.claims();
    expect(firstClaims).toMatchObject({
      sub: user.id,
      aud: registered.clientId,
      nonce,
      acr,
      amr: ['pwd'],
      auth_time: expect.any(Number),
      sid: expect.any(String),
    });
    expect(first.refresh_token).toEqual(expect.any(String));
    // A second passes, so that a new iat differs from the first one's.
    await sleep(1100);

    const second = await client.refresh(first);
    expect(second).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      id_token: expect.any(String),
      scope: 'openid email offline_access',
    });
    const claims = second.claims();
    expect(original(second)).toEqual(original(first));
    expect(claims.nonce).toBeUndefined();
    expect(claims.email).toBe(user.email);
    expect(claims.at_hash).toEqual(expect.any(String));
    expect(claims.iat).toBeGreaterThan(firstClaims.iat);
    expect(claims.exp - claims.iat).toBe(firstClaims.exp - firstClaims.iat);
    expect(await client.userinfo(second)).toEqual({ sub: user.id, email: user.email });

    // The rotated token keeps the sign-in it came from: a refresh of it says the same.
    const third = await client.refresh(second);
    expect(original(third)).toEqual(original(first));
    expect(third.claims().nonce).toBeUndefined();
    const family = rowsOf(
      await execSql(rp.server)`
        select claims->>'authTime' as "authTime", session_id as "sessionId" from refresh_tokens
        where family_id in (select family_id from refresh_tokens where session_id = ${firstClaims.sid})`,
    );
    expect(family).toHaveLength(3);
    expect(new Set(family.map((r) => `${r.authTime} ${r.sessionId}`)).size).toBe(1);
    expect(family[0].sessionId).toBe(firstClaims.sid);
    expect(Math.floor(new Date(String(family[0].authTime)).getTime() / 1000)).toBe(firstClaims.auth_time);
  });

  it('takes the sign-in from the first token of the family when the presented one does not hold it', async () => {
    const { tokens: first } = await codeFlow('openid offline_access');
    const second = await client.refresh(first);
    // Tokens rotated without their sign-in (no claims, no session), as rotation once stored them.
    await execSql(rp.server)`
      update refresh_tokens set claims = null, session_id = null
      where family_id in (select family_id from refresh_tokens where session_id = ${first.claims().sid})
      and rotated_at is null`;
    const third = await client.refresh(second);
    expect(original(third)).toEqual(original(first));
    expect(third.claims().nonce).toBeUndefined();
  });

  it('returns no ID token when the refresh narrows the scope to leave out openid', async () => {
    const { tokens: first } = await codeFlow('openid email offline_access');
    const narrowed = await client.refresh(first.refresh_token!, {
      exchangeBody: { scope: 'email offline_access' },
    });
    expect(narrowed).toMatchObject({ access_token: expect.any(String), scope: 'email offline_access' });
    expect(narrowed.id_token).toBeUndefined();
  });

  it('keeps the auth_time of a password grant (no browser session, so no sid)', async () => {
    const first = await client.grant({
      grant_type: 'password',
      username: user.userName,
      password: testPassword,
      scope: 'openid offline_access',
    });
    expect(first.claims().sid).toBeUndefined();
    await sleep(1100);
    const second = await client.refresh(first);
    const claims = second.claims();
    expect({ sub: claims.sub, aud: claims.aud, auth_time: claims.auth_time, sid: claims.sid }).toEqual({
      sub: user.id,
      aud: registered.clientId,
      auth_time: first.claims().auth_time,
      sid: undefined,
    });
    expect(claims.iat).toBeGreaterThan(first.claims().iat);
    expect(claims.nonce).toBeUndefined();
  });
});

describe('refresh_token grant of a grant without openid', () => {
  it('returns an access token and a new refresh token, and no ID token', async () => {
    const { tokens: first } = await codeFlow('email offline_access');
    expect(first.id_token).toBeUndefined();
    const second = await client.refresh(first.refresh_token!);
    expect(second).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      scope: 'email offline_access',
    });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.id_token).toBeUndefined();
  });
});
