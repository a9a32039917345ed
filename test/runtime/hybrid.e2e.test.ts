import { type CallbackParamsType, type Client, generators, Issuer, type TokenSet } from 'openid-client-v5';
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, formsOf, signIn } from './agent.js';
import { type CreatedClient, createClient, createUser, runtimeServerPerFile, testPassword } from './support.js';

// openid-client v5 is the relying party here: unlike v6 it takes the hybrid response types, and checks the ID
// token of the authorization response (signature, nonce, c_hash, at_hash) before it exchanges the code.

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
const scope = 'openid email';
let user: Awaited<ReturnType<typeof createUser>>;
let registered: CreatedClient;
let client: Client;

beforeAll(async () => {
  user = await createUser(rp.server);
  registered = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri], allowedGrantTypes: ['authorization_code', 'implicit'] },
  });
  const issuer = await Issuer.discover(rp.server.issuer);
  client = new issuer.Client({
    client_id: registered.clientId,
    client_secret: registered.clientSecret,
    redirect_uris: [redirectUri],
    response_types: ['code id_token', 'code token', 'code id_token token'],
    token_endpoint_auth_method: 'client_secret_basic',
  });
});

type HybridType = 'code id_token' | 'code token' | 'code id_token token';

/** What the relying party keeps between the authorization request and the callback. */
interface Checks {
  nonce: string;
  state: string;
  code_verifier: string;
  response_type: HybridType;
}

const payloadOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

/**
 * Sends the person through the authorization endpoint for `responseType` (signing in on the login page) and
 * returns the parameters the client receives: from the fragment of the redirect, or from the auto-submitting form
 * with `form_post`.
 */
async function authorize(
  responseType: HybridType,
  responseMode?: 'form_post',
): Promise<{ params: CallbackParamsType; checks: Checks }> {
  const checks: Checks = {
    nonce: generators.nonce(),
    state: generators.state(),
    code_verifier: generators.codeVerifier(),
    response_type: responseType,
  };
  const url = client.authorizationUrl({
    scope,
    response_type: responseType,
    ...(responseMode ? { response_mode: responseMode } : {}),
    nonce: checks.nonce,
    state: checks.state,
    code_challenge: generators.codeChallenge(checks.code_verifier),
    code_challenge_method: 'S256',
  });
  const agent = new Agent(rp.server.url);
  if (responseMode === 'form_post') {
    const login = await agent.navigate(url);
    const posted = await agent.submit(login.page!, { username: user.userName, password: testPassword });
    expect(posted.page?.status).toBe(200);
    const [form] = formsOf(posted.page!);
    expect({ action: form.action, method: form.method }).toEqual({ action: redirectUri, method: 'POST' });
    return { params: form.fields, checks };
  }
  const back = await signIn(agent, url, user.userName, testPassword);
  expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
  expect(back.search).toBe('');
  return { params: Object.fromEntries(new URLSearchParams(back.hash.slice(1))), checks };
}

/** The callback as openid-client does it: checks of the authorization response, then the code exchange. */
const callback = (params: CallbackParamsType, checks: Checks): Promise<TokenSet> =>
  client.callback(redirectUri, params, checks);

/** The token endpoint's ID token as openid-client validated it: about the user, for the client, with the nonce. */
function expectTokenEndpointResult(tokens: TokenSet, checks: Checks): void {
  expect(tokens).toMatchObject({
    access_token: expect.any(String),
    token_type: 'Bearer',
    id_token: expect.any(String),
    scope,
    expires_at: expect.any(Number),
  });
  expect(tokens.refresh_token).toBeUndefined();
  const claims = tokens.claims();
  expect(claims).toMatchObject({
    iss: rp.server.issuer,
    sub: user.id,
    aud: registered.clientId,
    azp: registered.clientId,
    nonce: checks.nonce,
    email: user.email,
    at_hash: expect.any(String),
  });
  expect(claims.c_hash).toBeUndefined();
}

describe('hybrid flows with openid-client v5 as the relying party', () => {
  it('code id_token in the fragment: the ID token carries c_hash and no at_hash, the code is exchanged', async () => {
    const { params, checks } = await authorize('code id_token');
    expect(Object.keys(params).sort()).toEqual(['code', 'id_token', 'iss', 'state']);
    const front = payloadOf(params.id_token!);
    expect(front).toMatchObject({
      sub: user.id,
      aud: registered.clientId,
      nonce: checks.nonce,
      c_hash: expect.any(String),
    });
    expect(front.at_hash).toBeUndefined();
    const tokens = await callback(params, checks);
    expectTokenEndpointResult(tokens, checks);
    expect(await client.userinfo(tokens)).toEqual({ sub: user.id, email: user.email });
  });

  it('code token in the fragment: an access token beside the code, both usable at userinfo', async () => {
    const { params, checks } = await authorize('code token');
    expect(Object.keys(params).sort()).toEqual([
      'access_token',
      'code',
      'expires_in',
      'iss',
      'scope',
      'state',
      'token_type',
    ]);
    expect(params).toMatchObject({ token_type: 'Bearer', scope });
    const tokens = await callback(params, checks);
    expectTokenEndpointResult(tokens, checks);
    expect(await client.userinfo(params.access_token!)).toEqual({ sub: user.id, email: user.email });
    expect(await client.userinfo(tokens)).toEqual({ sub: user.id, email: user.email });
  });

  it('code id_token token in the fragment: the ID token carries c_hash and at_hash', async () => {
    const { params, checks } = await authorize('code id_token token');
    expect(Object.keys(params).sort()).toEqual([
      'access_token',
      'code',
      'expires_in',
      'id_token',
      'iss',
      'scope',
      'state',
      'token_type',
    ]);
    expect(payloadOf(params.id_token!)).toMatchObject({
      sub: user.id,
      aud: registered.clientId,
      nonce: checks.nonce,
      c_hash: expect.any(String),
      at_hash: expect.any(String),
    });
    const tokens = await callback(params, checks);
    expectTokenEndpointResult(tokens, checks);
    expect(await client.userinfo(params.access_token!)).toEqual({ sub: user.id, email: user.email });
    expect(await client.userinfo(tokens)).toEqual({ sub: user.id, email: user.email });
  });

  it('code id_token token by form_post: the same parameters in an auto-submitting form', async () => {
    const { params, checks } = await authorize('code id_token token', 'form_post');
    expect(Object.keys(params).sort()).toEqual([
      'access_token',
      'code',
      'expires_in',
      'id_token',
      'iss',
      'scope',
      'state',
      'token_type',
    ]);
    expect(payloadOf(params.id_token!)).toMatchObject({
      nonce: checks.nonce,
      c_hash: expect.any(String),
      at_hash: expect.any(String),
    });
    const tokens = await callback(params, checks);
    expectTokenEndpointResult(tokens, checks);
    expect(await client.userinfo(tokens)).toEqual({ sub: user.id, email: user.email });
  });

  it('refuses an access token swapped in the fragment (at_hash), before exchanging the code', async () => {
    const { params, checks } = await authorize('code id_token token');
    const other = await authorize('code token');
    const tampered = { ...params, access_token: other.params.access_token };
    await expect(callback(tampered, checks)).rejects.toThrow(/^at_hash mismatch, expected /);
    // The code was not spent: the untouched response still goes through.
    expectTokenEndpointResult(await callback(params, checks), checks);
  });

  it('refuses a fragment whose nonce or state is not the one of the request', async () => {
    const { params, checks } = await authorize('code id_token');
    await expect(callback(params, { ...checks, nonce: generators.nonce() })).rejects.toThrow(/^nonce mismatch/);
    await expect(callback(params, { ...checks, state: generators.state() })).rejects.toThrow(/^state mismatch/);
  });
});
