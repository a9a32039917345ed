import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiBase } from '../helpers/api.js';
import { Agent, signIn } from './agent.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  events,
  rpConfig,
  runtimeServerPerFile,
  testPassword,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
let service: CreatedClient;
let app: CreatedClient;

beforeAll(async () => {
  service = await createClient(rp.server, {
    configuration: { allowedGrantTypes: ['client_credentials'], restApiRole: 'Observer', redirectUris: [] },
    scopes: ['api', 'other'],
  });
  app = await createClient(rp.server, {
    configuration: {
      redirectUris: [redirectUri],
      allowedGrantTypes: ['authorization_code', 'refresh_token', 'password'],
    },
  });
});

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

async function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${rp.server.url}/runtime/oauth2/token.idp`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe('client_credentials', () => {
  it('issues a token to a client authenticating with the basic header', async () => {
    const config = await rpConfig(rp.server, service, 'basic');
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'api' });
    expect(tokens.scope).toBe('api');
    expect(decode(tokens.access_token)).toMatchObject({
      sub: service.clientId,
      aud: service.clientId,
      client_id: service.clientId,
      scope: 'api',
      'urn:identify:rest-api:role': 'Observer',
    });
    // The token works on the admin API with the client's role.
    const groups = await fetch(`${rp.server.url}${apiBase}/groups`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(groups.status).not.toBe(401);
    expect(groups.status).not.toBe(403);
  });

  it('issues a token to a client authenticating with client_secret_post', async () => {
    const config = await rpConfig(rp.server, service, 'post');
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'other' });
    expect(decode(tokens.access_token).scope).toBe('other');
  });

  it('answers 401 invalid_client to a wrong secret, with a Basic challenge for the header', async () => {
    const basic = `Basic ${Buffer.from(`${service.clientId}:wrong`).toString('base64')}`;
    const header = await tokenRequest({ grant_type: 'client_credentials' }, { authorization: basic });
    expect({ status: header.status, error: header.body.error }).toEqual({ status: 401, error: 'invalid_client' });
    expect(header.headers.get('www-authenticate')).toMatch(/^Basic/);
    const post = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: service.clientId,
      client_secret: 'x',
    });
    expect({ status: post.status, error: post.body.error }).toEqual({ status: 401, error: 'invalid_client' });
    const logged = events(rp.server, 4110).filter((e) => e.error === 'invalid_client');
    expect(logged.length).toBeGreaterThanOrEqual(2);
  });
});

describe('password grant', () => {
  it('issues tokens to a user (openid-client generic grant)', async () => {
    const user = await createUser(rp.server);
    const config = await rpConfig(rp.server, app, 'post');
    const tokens = await oidc.genericGrantRequest(config, 'password', {
      username: user.userName,
      password: testPassword,
      scope: 'openid offline_access',
    });
    expect(decode(tokens.access_token)).toMatchObject({ sub: user.id, scope: 'openid offline_access' });
    expect(typeof tokens.refresh_token).toBe('string');
  });

  it('answers invalid_client for a user whose password must be reset (the spec rule)', async () => {
    const user = await createUser(rp.server, { forceResetPasswordAfterFirstTimeLogin: true });
    const response = await tokenRequest({
      grant_type: 'password',
      client_id: app.clientId,
      client_secret: app.clientSecret!,
      username: user.userName,
      password: testPassword,
    });
    expect({ status: response.status, error: response.body.error }).toEqual({ status: 401, error: 'invalid_client' });
  });
});

describe('refresh tokens', () => {
  it('rotates on every use, and a reused (rotated) token revokes its whole family', async () => {
    const user = await createUser(rp.server);
    const config = await rpConfig(rp.server, app);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await signIn(new Agent(rp.server.url), url, user.userName, testPassword);
    const first = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    expect(first.refresh_token).toBeDefined();
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    expect(second.refresh_token).toBeDefined();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const third = await oidc.refreshTokenGrant(config, second.refresh_token!);
    // The first token was rotated: presenting it again is reuse, which revokes the family (third's token too).
    await expect(oidc.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.refreshTokenGrant(config, third.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const introspected = await oidc.tokenIntrospection(config, third.refresh_token!);
    expect(introspected.active).toBe(false);
  });
});

describe('revocation (RFC 7009) then introspection (RFC 7662)', () => {
  it('introspects an access token as active, revokes it, then introspects it as inactive', async () => {
    const user = await createUser(rp.server);
    const config = await rpConfig(rp.server, app, 'basic');
    const tokens = await oidc.genericGrantRequest(config, 'password', {
      username: user.userName,
      password: testPassword,
      scope: 'openid offline_access',
    });
    const active = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(active).toMatchObject({
      active: true,
      client_id: app.clientId,
      username: user.userName,
      sub: user.id,
      scope: 'openid offline_access',
      token_type: 'Bearer',
      iss: rp.server.issuer,
    });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
    const userinfo = await fetch(`${rp.server.url}/runtime/openidconnect/userinfo.idp`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.status).toBe(401);

    const refresh = await oidc.tokenIntrospection(config, tokens.refresh_token!, { token_type_hint: 'refresh_token' });
    expect(refresh).toMatchObject({ active: true, token_type: 'refresh_token', client_id: app.clientId });
    await oidc.tokenRevocation(config, tokens.refresh_token!, { token_type_hint: 'refresh_token' });
    expect(await oidc.tokenIntrospection(config, tokens.refresh_token!)).toEqual({ active: false });
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('answers 200 for an unknown token, and refuses introspection to a public client', async () => {
    const config = await rpConfig(rp.server, app, 'post');
    await expect(oidc.tokenRevocation(config, 'no-such-token')).resolves.toBeUndefined();
    const publicClient = await createClient(rp.server, {
      configuration: { publicClient: true, redirectUris: [redirectUri] },
    });
    const response = await fetch(`${rp.server.url}/runtime/oauth2/introspect.idp`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'x', client_id: publicClient.clientId }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_client');
  });
});
