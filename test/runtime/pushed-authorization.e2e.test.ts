import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, signIn } from './agent.js';
import {
  authorizeUrl,
  type CreatedClient,
  createClient,
  createUser,
  execSql,
  rowsOf,
  rpConfig,
  runtimeServerPerFile,
  TEST_REDIRECT_URI,
  testPassword,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = TEST_REDIRECT_URI;
const prefix = 'urn:ietf:params:oauth:request_uri:';
let user: Awaited<ReturnType<typeof createUser>>;
let confidential: CreatedClient;
let other: CreatedClient;

beforeAll(async () => {
  user = await createUser(rp.server);
  confidential = await createClient(rp.server);
  other = await createClient(rp.server);
});

const basic = (client: CreatedClient, secret = client.clientSecret) =>
  `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`;

/** Posts a pushed authorization request: a code request of `TEST_REDIRECT_URI` with `form` over it. */
async function push(form: Record<string, string>, authorization?: string) {
  const response = await fetch(`${rp.server.url}/runtime/oauth2/par.idp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(authorization ? { authorization } : {}),
    },
    body: new URLSearchParams({ response_type: 'code', scope: 'openid', redirect_uri: redirectUri, ...form }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** The authorization endpoint's address naming a pushed request. */
const pushedUrl = (clientId: string, requestUri: unknown) => {
  const query = new URLSearchParams({ client_id: clientId, request_uri: String(requestUri) });
  return `${rp.server.url}/runtime/oauth2/authorize.idp?${query}`;
};

/** Opens the address without following redirects: the status, the Location header and the page. */
async function open(url: string) {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

/** The pushed requests stored for the client: their keys. */
async function storedFor(client: CreatedClient): Promise<string[]> {
  const result = await execSql(rp.server)`select request_uri_hash from pushed_authorization_requests
    where client_id = ${client.clientId}`;
  return rowsOf(result).map((r) => String(r.request_uri_hash));
}

const digestOf = (requestUri: unknown) =>
  createHash('sha256').update(String(requestUri).slice(prefix.length)).digest('hex');

const expectErrorPage = (page: Awaited<ReturnType<typeof open>>, error: string, description: string) => {
  expect(page.status).toBe(400);
  expect(page.location).toBeNull();
  expect(page.html).toContain(`<code>${error}</code>`);
  expect(page.html).toContain(description);
};

const usedUp = 'request_uri is unknown, expired, already used or not of this client';

describe('discovery', () => {
  it('names the pushed authorization request endpoint and does not require pushing', async () => {
    const doc = (await (await fetch(`${rp.server.issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(doc.pushed_authorization_request_endpoint).toBe(`${rp.server.url}/runtime/oauth2/par.idp`);
    expect(doc.require_pushed_authorization_requests).toBe(false);
  });
});

describe('pushing an authorization request', () => {
  it('answers 201 with a request_uri of 60 seconds, never cached, and stores only its digest', async () => {
    const response = await push({}, basic(confidential));

    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(response.body).sort()).toEqual(['expires_in', 'request_uri']);
    expect(response.body.expires_in).toBe(60);
    expect(response.body.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/);
    expect(await storedFor(confidential)).toContain(digestOf(response.body.request_uri));
  });

  it('refuses an unregistered redirect_uri with a JSON invalid_request and stores nothing', async () => {
    const client = await createClient(rp.server);

    const response = await push({ redirect_uri: 'https://evil.example/cb' }, basic(client));

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: 'redirect_uri is not registered for this client',
    });
    expect(await storedFor(client)).toEqual([]);
  });

  it('refuses a wrong client secret with 401 invalid_client and stores nothing', async () => {
    const client = await createClient(rp.server);

    const response = await push({}, basic(client, 'wrong'));

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="idsvc"');
    expect(response.body).toEqual({ error: 'invalid_client', error_description: 'client authentication failed' });
    expect(await storedFor(client)).toEqual([]);
  });

  it('refuses a request_uri inside the push, another client_id, and a scope the client may not ask for', async () => {
    const client = await createClient(rp.server);

    expect(await push({ request_uri: `${prefix}x` }, basic(client))).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_request',
        error_description: 'request_uri is not allowed in a pushed authorization request',
      },
    });
    expect(await push({ client_id: other.clientId }, basic(client))).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(await push({ scope: 'openid admin' }, basic(client))).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope' },
    });
    expect(await storedFor(client)).toEqual([]);
  });

  it('lets a public client push with its client_id and PKCE, and only with PKCE', async () => {
    const client = await createClient(rp.server, { configuration: { publicClient: true } });
    const challenge = await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier());

    expect(await push({ client_id: client.clientId })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'this client must use PKCE (code_challenge with S256)' },
    });
    const pushed = await push({ client_id: client.clientId, code_challenge: challenge, code_challenge_method: 'S256' });
    expect(pushed.status).toBe(201);
    expect(await storedFor(client)).toEqual([digestOf(pushed.body.request_uri)]);
  });
});

describe('the authorization endpoint with a pushed request', () => {
  it('runs the code flow with PKCE on the pushed parameters, the query ignored, and ends in tokens', async () => {
    const config = await rpConfig(rp.server, confidential);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    const withQuery = new URL(url);
    withQuery.searchParams.set('redirect_uri', 'https://evil.example/cb');
    withQuery.searchParams.set('state', 'from-the-query');

    const callback = await signIn(new Agent(rp.server.url), withQuery, user.userName, testPassword);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });

    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('openid profile');
    expect(tokens.claims()).toMatchObject({ sub: user.id, aud: confidential.clientId, nonce });
    expect(await storedFor(confidential)).not.toContain(digestOf(url.searchParams.get('request_uri')));
  });

  it('shows the error page, never a redirect, when the request_uri is used a second time', async () => {
    const pushed = await push({ state: 'once' }, basic(confidential));
    const url = pushedUrl(confidential.clientId, pushed.body.request_uri);

    const first = await open(url);
    const second = await open(url);

    expect(first.status).toBe(200);
    expect(first.html).toContain('name="password"');
    expectErrorPage(second, 'invalid_request_uri', usedUp);
  });

  it('shows the error page for an expired request_uri', async () => {
    const pushed = await push({}, basic(confidential));
    await execSql(rp.server)`update pushed_authorization_requests set expires_at = now() - interval '1 second'
      where request_uri_hash = ${digestOf(pushed.body.request_uri)}`;

    expectErrorPage(
      await open(pushedUrl(confidential.clientId, pushed.body.request_uri)),
      'invalid_request_uri',
      usedUp,
    );
  });

  it("shows the error page for another client's request_uri, which stays usable by its own client", async () => {
    const pushed = await push({}, basic(confidential));

    expectErrorPage(await open(pushedUrl(other.clientId, pushed.body.request_uri)), 'invalid_request_uri', usedUp);
    expectErrorPage(await open(pushedUrl('nobody', pushed.body.request_uri)), 'invalid_request', 'unknown client_id');

    const own = await open(pushedUrl(confidential.clientId, pushed.body.request_uri));
    expect(own.status).toBe(200);
    expect(own.html).toContain('name="password"');
  });
});

describe('requirePushedAuthorizationRequests', () => {
  it('refuses a plain authorization request on the error page and serves a pushed one', async () => {
    const client = await createClient(rp.server, { configuration: { requirePushedAuthorizationRequests: true } });

    const plain = await open(authorizeUrl(rp.server, client));
    const pushed = await push({}, basic(client));
    const served = await open(pushedUrl(client.clientId, pushed.body.request_uri));

    expectErrorPage(plain, 'invalid_request', 'this client must push its authorization requests');
    expect(served.status).toBe(200);
    expect(served.html).toContain('name="password"');
  });
});
