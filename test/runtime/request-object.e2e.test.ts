import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  assertionClaims,
  assertionForm,
  type ClientKey,
  clientKey,
  signAssertion,
} from '../../packages/server/src/test-support/client-assertions.js';
import { Agent, signIn } from './agent.js';
import {
  authorizeUrl,
  type CreatedClient,
  createClient,
  createUser,
  events,
  runtimeServerPerFile,
  TEST_REDIRECT_URI,
  testPassword,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = TEST_REDIRECT_URI;
const hmacSecret = 'h'.repeat(40);
let user: Awaited<ReturnType<typeof createUser>>;
let key: ClientKey;
let keyed: CreatedClient;
let hmac: CreatedClient;

beforeAll(async () => {
  user = await createUser(rp.server);
  key = await clientKey('PS256');
  keyed = await createClient(rp.server, {
    configuration: { tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [key.publicJwk] } },
  });
  hmac = await createClient(rp.server, {
    configuration: { tokenEndpointAuthMethod: 'client_secret_jwt', clientSecret: hmacSecret },
  });
});

/** openid-client's configuration of the client, authenticating with private_key_jwt or client_secret_jwt. */
const rpWith = (client: CreatedClient, auth: oidc.ClientAuth) =>
  oidc.discovery(new URL(rp.server.issuer), client.clientId, {}, auth, { execute: [oidc.allowInsecureRequests] });
const keyedConfig = () => rpWith(keyed, oidc.PrivateKeyJwt({ key: key.privateKey, kid: key.kid }));

/** A code request with PKCE, state and nonce: its parameters and what the code exchange checks. */
async function codeRequest(extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const checks = { pkceCodeVerifier: verifier, expectedState: oidc.randomState(), expectedNonce: oidc.randomNonce() };
  const params = {
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: checks.expectedState,
    nonce: checks.expectedNonce,
    ...extra,
  };
  return { params, checks };
}

/** Signs in through the authorization URL and exchanges the code; the address the browser was sent back to too. */
async function signInAndExchange(
  config: oidc.Configuration,
  url: URL | string,
  checks: oidc.AuthorizationCodeGrantChecks,
) {
  const callback = await signIn(new Agent(rp.server.url), url, user.userName, testPassword);
  const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
  return { callback, tokens };
}

/** Opens the address without following redirects: the status, the Location header and the page. */
async function open(url: string | URL) {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

const expectErrorPage = (page: Awaited<ReturnType<typeof open>>, error: string, description: string) => {
  expect(page.status).toBe(400);
  expect(page.location).toBeNull();
  expect(page.html).toContain(`<code>${error}</code>`);
  expect(page.html).toContain(description.replace(/'/g, '&#39;'));
};

/** The claims of a request object of the client for this server, a minute to live, with `request` over them. */
function objectClaims(client: CreatedClient, request: Record<string, unknown>) {
  const now = Math.floor(Date.now() / 1000);
  const jwt = { iss: client.clientId, aud: rp.server.issuer, client_id: client.clientId, iat: now, exp: now + 60 };
  return { ...jwt, ...request };
}

/** The authorization endpoint's address with the query given. */
const endpoint = (query: Record<string, string>) =>
  `${rp.server.url}/runtime/oauth2/authorize.idp?${new URLSearchParams(query)}`;

describe('request objects at the authorization endpoint', () => {
  it("runs the code flow with PKCE on a request object signed with a private_key_jwt client's key (openid-client)", async () => {
    const config = await keyedConfig();
    const { params, checks } = await codeRequest({ scope: 'openid profile' });
    const url = await oidc.buildAuthorizationUrlWithJAR(config, params, { key: key.privateKey, kid: key.kid });
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request']);

    const { callback, tokens } = await signInAndExchange(config, url, checks);

    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(tokens.scope).toBe('openid profile');
    expect(tokens.claims()).toMatchObject({ sub: user.id, aud: keyed.clientId, nonce: checks.expectedNonce });
  });

  it("runs the code flow on an HS256 request object signed with the client's secret", async () => {
    const config = await rpWith(hmac, oidc.ClientSecretJwt(hmacSecret));
    const { params, checks } = await codeRequest();
    const claims = objectClaims(hmac, { ...params, response_type: 'code' });
    const request = await signAssertion(claims, hmacSecret, { alg: 'HS256' });

    const { tokens } = await signInAndExchange(config, endpoint({ client_id: hmac.clientId, request }), checks);

    expect(tokens.claims()).toMatchObject({ sub: user.id, aud: hmac.clientId, nonce: checks.expectedNonce });
  });

  it("ignores the query's parameters beside the request object: redirect_uri, scope and state come from it", async () => {
    const config = await keyedConfig();
    const { params, checks } = await codeRequest();
    const url = await oidc.buildAuthorizationUrlWithJAR(config, params, { key: key.privateKey, kid: key.kid });
    url.searchParams.set('redirect_uri', 'https://evil.example/cb');
    url.searchParams.set('scope', 'openid profile email');
    url.searchParams.set('state', 'from-the-query');

    const { callback, tokens } = await signInAndExchange(config, url, checks);

    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('state')).toBe(checks.expectedState);
    expect(tokens.scope).toBe('openid');
  });

  it('shows the error page, never a redirect, for a tampered request object, and logs event 4110', async () => {
    const config = await keyedConfig();
    const { params } = await codeRequest();
    const url = await oidc.buildAuthorizationUrlWithJAR(config, params, { key: key.privateKey, kid: key.kid });
    const [header, payload, signature] = (url.searchParams.get('request') ?? '').split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, redirect_uri: 'https://evil.example/cb' })).toString(
      'base64url',
    );
    const before = events(rp.server, 4110).length;

    const page = await open(endpoint({ client_id: keyed.clientId, request: `${header}.${forged}.${signature}` }));

    const description = "the request object's signature does not verify with the client's keys";
    expectErrorPage(page, 'invalid_request_object', description);
    expect(events(rp.server, 4110).slice(before)).toEqual([
      expect.objectContaining({ error: 'invalid_request_object', description, clientId: keyed.clientId }),
    ]);
  });

  it('shows the error page for alg none, request beside request_uri, and a request_uri that names no push', async () => {
    const claims = objectClaims(keyed, { response_type: 'code', scope: 'openid', redirect_uri: redirectUri });
    const unsigned = await signAssertion(claims, null, { alg: 'none' });
    const signed = await signAssertion(claims, key.privateKey, { alg: 'PS256', kid: key.kid });
    const clientId = keyed.clientId;

    expectErrorPage(
      await open(endpoint({ client_id: clientId, request: unsigned })),
      'invalid_request_object',
      'the request object must be signed (alg none is refused)',
    );
    expectErrorPage(
      await open(
        endpoint({ client_id: clientId, request: signed, request_uri: 'urn:ietf:params:oauth:request_uri:x' }),
      ),
      'invalid_request',
      'request and request_uri cannot be used together',
    );
    expectErrorPage(
      await open(endpoint({ client_id: clientId, request_uri: 'https://app.example/request.jwt' })),
      'invalid_request_uri',
      'request_uri is unknown, expired, already used or not of this client',
    );
  });
});

describe('request objects inside pushed requests', () => {
  it('pushes a request object built by openid-client and runs the code flow on it', async () => {
    const config = await keyedConfig();
    const { params, checks } = await codeRequest();
    const jar = await oidc.buildAuthorizationUrlWithJAR(config, params, { key: key.privateKey, kid: key.kid });

    const url = await oidc.buildAuthorizationUrlWithPAR(config, jar.searchParams);
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    const { callback, tokens } = await signInAndExchange(config, url, checks);

    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(tokens.claims()).toMatchObject({ sub: user.id, aud: keyed.clientId, nonce: checks.expectedNonce });
  });

  it('answers a push whose request object does not verify with a JSON 400 invalid_request_object', async () => {
    const claims = objectClaims(hmac, { response_type: 'code', scope: 'openid', redirect_uri: redirectUri });
    const request = await signAssertion(claims, 'x'.repeat(40), { alg: 'HS256' });
    const assertion = await signAssertion(assertionClaims(hmac.clientId, rp.server.issuer), hmacSecret, {
      alg: 'HS256',
    });
    const response = await fetch(`${rp.server.url}/runtime/oauth2/par.idp`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: assertionForm(assertion, { request }),
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_request_object',
      error_description: "the request object's signature does not verify with the client's secret",
    });
  });
});

describe('requireSignedRequestObject', () => {
  it('refuses a plain request on the error page and serves one with a request object', async () => {
    const client = await createClient(rp.server, {
      configuration: { jwks: { keys: [key.publicJwk] }, requireSignedRequestObject: true },
    });
    const claims = objectClaims(client, { response_type: 'code', scope: 'openid', redirect_uri: redirectUri });
    const request = await signAssertion(claims, key.privateKey, { alg: 'PS256', kid: key.kid });

    const plain = await open(authorizeUrl(rp.server, client));
    const signed = await open(endpoint({ client_id: client.clientId, request }));

    expectErrorPage(
      plain,
      'invalid_request',
      'this client must send its authorization requests as signed request objects (request)',
    );
    expect(signed.status).toBe(200);
    expect(signed.html).toContain('name="password"');
  });
});

describe('discovery', () => {
  it('says request objects are served by value, and which algorithms they may be signed with', async () => {
    const response = await fetch(`${rp.server.issuer}/.well-known/openid-configuration`);
    const doc = (await response.json()) as Record<string, unknown>;

    expect(doc).toMatchObject({
      request_parameter_supported: true,
      request_uri_parameter_supported: false,
      request_object_signing_alg_values_supported: [
        ...['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'],
        ...['HS256', 'HS384', 'HS512'],
      ],
    });
  });
});
