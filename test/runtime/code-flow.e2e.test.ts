import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, signIn } from './agent.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  rpConfig,
  runtimeServerPerFile,
  testPassword,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
let user: Awaited<ReturnType<typeof createUser>>;
let confidential: CreatedClient;

beforeAll(async () => {
  user = await createUser(rp.server, {
    displayName: 'Ada Lovelace',
    phoneNumber: '+31 20 123 4567',
    claims: [
      { type: 'given_name', value: 'Ada' },
      { type: 'email_verified', value: 'true' },
      { type: 'address', value: '{"street_address":"Keizersgracht 1","locality":"Amsterdam","country":"NL"}' },
    ],
  });
  confidential = await createClient(rp.server, { configuration: { redirectUris: [redirectUri] } });
});

/** Runs the code flow with PKCE as openid-client does it; returns the token response and the checks used. */
async function codeFlow(
  config: oidc.Configuration,
  scope = 'openid profile email',
  extra: Record<string, string> = {},
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  const agent = new Agent(rp.server.url);
  const callback = await signIn(agent, url, user.userName, testPassword);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
  return { tokens, agent, nonce, callback };
}

describe('discovery', () => {
  it('builds every address from the base URL', async () => {
    const response = await fetch(`${rp.server.url}/runtime/oauth2/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Record<string, unknown>;
    const base = rp.server.url;
    expect(doc).toMatchObject({
      issuer: `${base}/runtime/oauth2`,
      authorization_endpoint: `${base}/runtime/oauth2/authorize.idp`,
      token_endpoint: `${base}/runtime/oauth2/token.idp`,
      jwks_uri: `${base}/runtime/oauth2/jwks.idp`,
      userinfo_endpoint: `${base}/runtime/openidconnect/userinfo.idp`,
      revocation_endpoint: `${base}/runtime/oauth2/revoke.idp`,
      introspection_endpoint: `${base}/runtime/oauth2/introspect.idp`,
      end_session_endpoint: `${base}/runtime/openidconnect/logout.idp`,
      device_authorization_endpoint: `${base}/runtime/oauth2/deviceauthorization.idp`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: [
        'client_secret_basic',
        'client_secret_post',
        'client_secret_jwt',
        'private_key_jwt',
        'none',
      ],
    });
    expect(doc.response_types_supported).toEqual([
      'code',
      'code id_token',
      'code token',
      'code id_token token',
      'id_token',
      'id_token token',
    ]);
  });
});

describe('authorization code flow with PKCE (openid-client)', () => {
  it('signs in on the login page and exchanges the code for an ID token and an access token (basic auth)', async () => {
    const config = await rpConfig(rp.server, confidential, 'basic');
    const { tokens, nonce } = await codeFlow(config);
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: rp.server.issuer,
      sub: user.id,
      aud: confidential.clientId,
      azp: confidential.clientId,
      nonce,
      name: 'Ada Lovelace',
      given_name: 'Ada',
      preferred_username: user.userName,
      email: user.email,
      email_verified: true,
      amr: ['pwd'],
    });
    expect(claims?.phone_number).toBeUndefined();
    expect(typeof claims?.auth_time).toBe('number');
    expect(typeof claims?.sid).toBe('string');
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('openid profile email');
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('answers userinfo by GET, by POST with the header and by POST with the token in the body', async () => {
    const config = await rpConfig(rp.server, confidential, 'post');
    const { tokens } = await codeFlow(config, 'openid email phone address');
    const expected = {
      sub: user.id,
      email: user.email,
      email_verified: true,
      phone_number: '+31 20 123 4567',
      address: { street_address: 'Keizersgracht 1', locality: 'Amsterdam', country: 'NL' },
    };
    expect(await oidc.fetchUserInfo(config, tokens.access_token, user.id)).toEqual(expected);
    const endpoint = `${rp.server.url}/runtime/openidconnect/userinfo.idp`;
    const byHeader = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(byHeader.status).toBe(200);
    expect(await byHeader.json()).toEqual(expected);
    const byBody = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: tokens.access_token }),
    });
    expect(byBody.status).toBe(200);
    expect(await byBody.json()).toEqual(expected);
  });

  it('refuses userinfo without a valid token (401 with WWW-Authenticate: Bearer)', async () => {
    const response = await fetch(`${rp.server.url}/runtime/openidconnect/userinfo.idp`, {
      headers: { authorization: 'Bearer not.a.token' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="idsvc", error="invalid_token"/);
  });

  it('issues JWT access tokens carrying aud, scope and client_id', async () => {
    const config = await rpConfig(rp.server, confidential);
    const { tokens } = await codeFlow(config, 'openid');
    const payload = JSON.parse(Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString());
    expect(payload).toMatchObject({
      iss: rp.server.issuer,
      sub: user.id,
      aud: confidential.clientId,
      client_id: confidential.clientId,
      scope: 'openid',
      'urn:internal:userid': user.id,
    });
    expect(JSON.parse(Buffer.from(tokens.access_token.split('.')[0], 'base64url').toString())).toMatchObject({
      alg: 'RS256',
      typ: 'JWT',
    });
  });

  it('lets a public client sign in with PKCE and no secret', async () => {
    const client = await createClient(rp.server, {
      configuration: { publicClient: true, redirectUris: [redirectUri] },
    });
    const config = await rpConfig(rp.server, client, 'none');
    const { tokens } = await codeFlow(config, 'openid');
    expect(tokens.claims()?.sub).toBe(user.id);
  });

  it('keeps one SSO session across clients: the second client signs in without the login page', async () => {
    const first = await rpConfig(rp.server, confidential);
    const { agent } = await codeFlow(first, 'openid');
    const other = await createClient(rp.server, { configuration: { redirectUris: [redirectUri] } });
    const config = await rpConfig(rp.server, other);
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', state });
    const outcome = await agent.navigate(url.toString());
    expect(outcome.left).toBeDefined();
    const tokens = await oidc.authorizationCodeGrant(config, outcome.left!, { expectedState: state });
    expect(tokens.claims()?.sub).toBe(user.id);
  });
});
