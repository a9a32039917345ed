import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, formsOf, signIn } from './agent.js';
import { authorizationRequest } from './password-sign-in.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  rpConfig,
  runtimeServerPerFile,
  TEST_REDIRECT_URI,
  testPassword,
} from './support.js';

// OAuth 2.0 Authorization Server Issuer Identification (RFC 9207): every authorization response carries `iss`, the
// issuer of discovery. openid-client v6 checks it because discovery says it is sent.

const rp = runtimeServerPerFile();
const redirectUri = TEST_REDIRECT_URI;
let user: Awaited<ReturnType<typeof createUser>>;
let client: CreatedClient;
let consenting: CreatedClient;

beforeAll(async () => {
  user = await createUser(rp.server);
  client = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri], allowedGrantTypes: ['authorization_code', 'implicit'] },
  });
  consenting = await createClient(rp.server, { configuration: { redirectUris: [redirectUri], consentRequired: true } });
});

/** An authorization request of openid-client (scope openid, state, nonce, PKCE for the code) with `params` over it. */
const request = (config: oidc.Configuration, params: Record<string, string> = {}) =>
  authorizationRequest(config, redirectUri, params);

/** The parameters of a fragment response. */
const fragmentOf = (url: URL) => Object.fromEntries(new URLSearchParams(url.hash.slice(1)));

describe('discovery', () => {
  it('says authorization responses carry iss, and names the issuer they carry', async () => {
    const response = await fetch(`${rp.server.url}/runtime/oauth2/.well-known/openid-configuration`);

    expect(response.status).toBe(200);
    const doc = (await response.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(rp.server.issuer);
    expect(doc.authorization_response_iss_parameter_supported).toBe(true);
  });
});

describe('successful authorization responses', () => {
  it('code flow (query): iss is the issuer, and openid-client accepts the response', async () => {
    const config = await rpConfig(rp.server, client);
    const { url, state, checks } = await request(config);

    const callback = await signIn(new Agent(rp.server.url), url, user.userName, testPassword);

    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.hash).toBe('');
    expect(Object.fromEntries(callback.searchParams)).toEqual({
      code: expect.stringMatching(/.+/),
      state,
      iss: rp.server.issuer,
    });
    const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
    expect(tokens.claims()).toMatchObject({ iss: rp.server.issuer, sub: user.id, aud: client.clientId });
  });

  it('implicit (fragment): iss beside the ID token, and openid-client accepts the response', async () => {
    const config = await rpConfig(rp.server, client);
    oidc.useIdTokenResponseType(config);
    const { url, state, nonce } = await request(config, { response_type: 'id_token' });

    const callback = await signIn(new Agent(rp.server.url), url, user.userName, testPassword);

    expect(callback.search).toBe('');
    expect(fragmentOf(callback)).toEqual({ id_token: expect.any(String), state, iss: rp.server.issuer });
    const claims = await oidc.implicitAuthentication(config, callback, nonce, { expectedState: state });
    expect(claims).toMatchObject({ iss: rp.server.issuer, sub: user.id, nonce });
  });

  it('hybrid (fragment): iss beside the code and the ID token, and openid-client accepts the response', async () => {
    const config = await rpConfig(rp.server, client);
    oidc.useCodeIdTokenResponseType(config);
    const { url, state, checks } = await request(config, { response_type: 'code id_token' });

    const callback = await signIn(new Agent(rp.server.url), url, user.userName, testPassword);

    expect(callback.search).toBe('');
    expect(fragmentOf(callback)).toEqual({
      code: expect.any(String),
      id_token: expect.any(String),
      state,
      iss: rp.server.issuer,
    });
    const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
    expect(tokens.claims()?.sub).toBe(user.id);
  });

  it('form_post: iss is a hidden field of the posted form, and openid-client accepts the post', async () => {
    const config = await rpConfig(rp.server, client);
    const { url, state, checks } = await request(config, { response_mode: 'form_post' });
    const agent = new Agent(rp.server.url);
    const login = await agent.navigate(url.toString());

    const posted = await agent.submit(login.page!, { username: user.userName, password: testPassword });

    expect(posted.page?.status).toBe(200);
    const [form] = formsOf(posted.page!);
    expect(form).toEqual({
      action: redirectUri,
      method: 'POST',
      fields: { code: expect.any(String), state, iss: rp.server.issuer },
    });
    const body = new URLSearchParams(form.fields);
    const tokens = await oidc.authorizationCodeGrant(
      config,
      new Request(redirectUri, { method: 'POST', body }),
      checks,
    );
    expect(tokens.claims()?.sub).toBe(user.id);
  });
});

describe('error responses', () => {
  it('access_denied from the consent page carries iss', async () => {
    const config = await rpConfig(rp.server, consenting);
    const { url, state } = await request(config);

    const denied = await signIn(new Agent(rp.server.url), url, user.userName, testPassword, 'deny');

    expect(Object.fromEntries(denied.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'the user denied access',
      state,
      iss: rp.server.issuer,
    });
  });

  it('login_required to prompt=none without a session carries iss, in the fragment for an implicit request', async () => {
    const config = await rpConfig(rp.server, client);
    const agent = new Agent(rp.server.url);
    const query = await request(config, { prompt: 'none' });
    const fragment = await request(config, { prompt: 'none', response_type: 'id_token' });

    const queryAnswer = await agent.navigate(query.url.toString());
    const fragmentAnswer = await agent.navigate(fragment.url.toString());

    expect(Object.fromEntries(queryAnswer.left?.searchParams ?? [])).toEqual({
      error: 'login_required',
      error_description: 'the user must sign in',
      state: query.state,
      iss: rp.server.issuer,
    });
    expect(fragmentOf(fragmentAnswer.left!)).toEqual({
      error: 'login_required',
      error_description: 'the user must sign in',
      state: fragment.state,
      iss: rp.server.issuer,
    });
  });
});

describe('a relying party checking iss', () => {
  it('openid-client refuses a response whose iss is another issuer or is missing, before spending the code', async () => {
    const config = await rpConfig(rp.server, client);
    const { url, checks } = await request(config);
    const callback = await signIn(new Agent(rp.server.url), url, user.userName, testPassword);
    const other = new URL(callback);
    other.searchParams.set('iss', `${rp.server.url}/other/runtime/oauth2`);
    const missing = new URL(callback);
    missing.searchParams.delete('iss');

    const refused = (reason: string) => ({
      message: 'invalid response encountered',
      code: 'OAUTH_INVALID_RESPONSE',
      cause: expect.objectContaining({ message: reason }),
    });
    await expect(oidc.authorizationCodeGrant(config, other, checks)).rejects.toMatchObject(
      refused('unexpected "iss" (issuer) response parameter value'),
    );
    await expect(oidc.authorizationCodeGrant(config, missing, checks)).rejects.toMatchObject(
      refused('response parameter "iss" (issuer) missing'),
    );
    // The code was not sent to the token endpoint: the untouched response still goes through.
    const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
    expect(tokens.claims()?.iss).toBe(rp.server.issuer);
  });
});
