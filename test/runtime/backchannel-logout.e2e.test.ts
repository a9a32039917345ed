import type { IncomingMessage, ServerResponse } from 'node:http';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionLinkService } from '../../packages/server/dist/services/action-links.js';
import type * as Jose from '../../packages/server/node_modules/jose/dist/types/index.js';
import { type HttpEndpoint, startHttpEndpoint } from '../../packages/server/src/test-support/http-endpoint.js';
import { samlLogoutRequestUrl, samlResponse } from '../../packages/server/src/test-support/saml-identity-provider.js';
import { apiBase } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { Agent, signIn } from './agent.js';
import {
  acsUrl,
  authorizeUrl,
  createSaml20Connection,
  EMAIL_FORMAT,
  postToAcs,
  startSamlSignIn,
  uploadedSigner,
} from './saml-idp.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  rpConfig,
  runtimeServerPerFile,
  TEST_REDIRECT_URI,
  testPassword,
  unique,
} from './support.js';
import { afterLogout, expectEnded, idTokenFor, logoutUrl, sessionIdOf, sloUrl } from './upstream-logout-support.js';

/** jose, as the server has it (the tests' own dependencies do not include it). */
const joseEntry = '../../packages/server/node_modules/jose/dist/webapi/index.js';
const { createRemoteJWKSet, jwtVerify } = (await import(joseEntry)) as typeof Jose;
type JWTPayload = Jose.JWTPayload;

const rp = runtimeServerPerFile();
const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/**
 * The clients' back-channel logout endpoints, each path its own: a path starting /fail answers 500, one starting
 * /hang answers only when the test lets it, any other 200.
 */
interface Received {
  path: string;
  contentType: string | undefined;
  fields: URLSearchParams;
  token: string;
}
let endpoint: HttpEndpoint;
let endpointUrl: string;
const received: Received[] = [];
const waiting: { path: string; resolve: (request: Received) => void }[] = [];
const held: ServerResponse[] = [];

function answer(req: IncomingMessage, res: ServerResponse, body: string) {
  const fields = new URLSearchParams(body);
  const request = {
    path: req.url ?? '',
    contentType: req.headers['content-type'],
    fields,
    token: fields.get('logout_token') ?? '',
  };
  received.push(request);
  for (const waiter of waiting.filter((w) => w.path === request.path)) {
    waiting.splice(waiting.indexOf(waiter), 1);
    waiter.resolve(request);
  }
  if (request.path.startsWith('/fail')) res.writeHead(500).end('failed');
  else if (request.path.startsWith('/hang')) held.push(res);
  else res.writeHead(200, { 'cache-control': 'no-store' }).end();
}

/** The next post to the path (wait for it before what sends it). */
const nextPost = (path: string) => new Promise<Received>((resolve) => waiting.push({ path, resolve }));

const postsTo = (path: string) => received.filter((r) => r.path === path);

beforeAll(async () => {
  endpoint = await startHttpEndpoint(answer);
  endpointUrl = endpoint.url;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await endpoint.close();
});

/**
 * The server's records that a back-channel logout of the user's ended sessions is over (every post has an
 * outcome), once there is one: the clients told, and how many answered 200 or 204.
 */
async function logoutsDone(userId: string): Promise<{ clients: string[]; delivered: number }[]> {
  const done = () =>
    rp.server.logs.filter(
      (r) => r.msg === 'back-channel logout done' && (r.userIds as string[]).includes(userId),
    ) as unknown as { clients: string[]; delivered: number }[];
  while (done().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  return done().map(({ clients, delivered }) => ({ clients, delivered }));
}

/** A client with the notification on, posting to its own path of the endpoint (`/fail…` or `/hang…` to fail). */
async function notifiedClient(prefix = '/ok', configuration: Record<string, unknown> = {}) {
  const path = `${prefix}-${unique('bc')}`;
  const client = await createClient(rp.server, {
    configuration: {
      redirectUris: [TEST_REDIRECT_URI],
      postLogoutRedirectUris: [afterLogout],
      enableSessionStatusChangeNotification: true,
      backchannelLogoutUri: `${endpointUrl}${path}`,
      ...configuration,
    },
  });
  return { client, path };
}

/** Signs in to the client in the browser through the code flow (openid-client); the ID token and its claims. */
async function signedIn(
  agent: Agent,
  client: CreatedClient,
  userName: string,
  metadata: Partial<oidc.ClientMetadata> = {},
) {
  const config = await rpConfig(rp.server, client, 'basic', metadata);
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: TEST_REDIRECT_URI, scope: 'openid', nonce });
  const callback = await signIn(agent, url, userName, testPassword);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { expectedNonce: nonce });
  return { idToken: tokens.id_token!, claims: tokens.claims()! };
}

const jwks = () => createRemoteJWKSet(new URL(`${rp.server.issuer}/jwks.idp`));

/** Verifies a logout token (OpenID Connect Back-Channel Logout 1.0 §2.6) and checks it names the ID token's sign-in. */
async function expectLogoutToken(
  token: string,
  client: CreatedClient,
  idToken: JWTPayload,
  key?: Uint8Array,
): Promise<JWTPayload> {
  const options = { issuer: rp.server.issuer, audience: client.clientId, typ: 'logout+jwt', maxTokenAge: '2m' };
  const { payload, protectedHeader } = key
    ? await jwtVerify(token, key, options)
    : await jwtVerify(token, jwks(), options);
  expect(protectedHeader.typ).toBe('logout+jwt');
  expect(Object.keys(payload).sort()).toEqual(['aud', 'events', 'exp', 'iat', 'iss', 'jti', 'sid', 'sub']);
  expect(payload).toMatchObject({
    iss: rp.server.issuer,
    aud: client.clientId,
    sub: idToken.sub,
    sid: idToken.sid,
    events: { [EVENT]: {} },
    jti: expect.any(String),
  });
  expect(payload.exp! - payload.iat!).toBe(120);
  expect(payload.nonce).toBeUndefined();
  return payload;
}

describe('discovery', () => {
  it('announces back-channel logout with sid', async () => {
    const doc = (await (await fetch(`${rp.server.issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(doc).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
  });
});

describe('configuration of the notification', () => {
  it('refuses enableSessionStatusChangeNotification without a backchannelLogoutUri, and stores one given', async () => {
    const name = unique('app');
    const body = {
      name,
      connectionType: 'Protocol',
      pluginType: 'OAuth20',
      configuration: { clientId: name, enableSessionStatusChangeNotification: true },
    };
    const refused = await rp.server.admin.post(`${apiBase}/connections`, { body });
    expectError(refused, 400, 'invalid_request');
    expect(refused.body).toMatchObject({
      message:
        'invalid OAuth20 configuration: configuration.backchannelLogoutUri is required when ' +
        'enableSessionStatusChangeNotification is true (logout tokens are posted there)',
      details: [{ field: 'configuration.backchannelLogoutUri', message: expect.stringContaining('is required') }],
    });
    expect((await rp.server.admin.get(`${apiBase}/connections/${name}`)).status).toBe(404);

    const backchannelLogoutUri = 'https://app.example/backchannel-logout';
    body.configuration = { ...body.configuration, backchannelLogoutUri } as typeof body.configuration;
    const created = await rp.server.admin.post(`${apiBase}/connections`, { body });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      configuration: { enableSessionStatusChangeNotification: true, backchannelLogoutUri },
    });
    const read = await rp.server.admin.get(`${apiBase}/connections/${name}`);
    expect(read.body).toMatchObject({
      configuration: { enableSessionStatusChangeNotification: true, backchannelLogoutUri },
    });
  });
});

describe('back-channel logout (OpenID Connect Back-Channel Logout 1.0)', () => {
  it('posts one logout token for the session to the client at RP-initiated logout', async () => {
    const { client, path } = await notifiedClient();
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const { idToken, claims } = await signedIn(agent, client, user.userName);
    expect(claims.sid).toBe(sessionIdOf(agent));
    const post = nextPost(path);
    const outcome = await agent.navigate(
      logoutUrl(rp.server, { id_token_hint: idToken, post_logout_redirect_uri: afterLogout, state: 'st' }),
    );
    expect(outcome.left?.toString()).toBe(`${afterLogout}?state=st`);
    const request = await post;
    expect(request.contentType).toBe('application/x-www-form-urlencoded');
    expect([...request.fields.keys()]).toEqual(['logout_token']);
    const token = await expectLogoutToken(request.token, client, claims);
    expect(token.sub).toBe(user.id);
    expect(await logoutsDone(user.id)).toEqual([{ clients: [client.clientId], delivered: 1 }]);
    expect(postsTo(path)).toHaveLength(1);
  });

  it('signs as the client ID tokens are: HS256 with the client secret, and with sub the NameID for useNameIdAsSub', async () => {
    const secret = 'k'.repeat(32);
    const { client, path } = await notifiedClient('/ok', {
      signingAlgorithm: 'HS256',
      clientSecret: secret,
      useNameIdAsSub: true,
    });
    const nameIdType = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier';
    const definition = await rp.server.admin.post(`${apiBase}/claimdefinitions`, {
      body: { claimType: nameIdType, kind: 'FreeClaimDefinition', variableName: 'nameidentifier' },
    });
    expect(definition.status).toBe(200);
    const user = await createUser(rp.server, { claims: [{ type: nameIdType, value: 'ada@example.test' }] });
    const agent = new Agent(rp.server.url);
    const { idToken, claims } = await signedIn(agent, client, user.userName, { id_token_signed_response_alg: 'HS256' });
    expect(claims.sub).toBe('ada@example.test');
    const post = nextPost(path);
    await agent.navigate(logoutUrl(rp.server, { id_token_hint: idToken }));
    const request = await post;
    const key = new TextEncoder().encode(secret);
    await expectLogoutToken(request.token, client, claims, key);
    await expect(jwtVerify(request.token, jwks())).rejects.toThrow();
  });

  it('tells only the clients of the session that have the notification on', async () => {
    const on = await notifiedClient();
    const offPath = `/ok-${unique('off')}`;
    const off = await createClient(rp.server, {
      configuration: {
        redirectUris: [TEST_REDIRECT_URI],
        enableSessionStatusChangeNotification: false,
        backchannelLogoutUri: `${endpointUrl}${offPath}`,
      },
    });
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const first = await signedIn(agent, on.client, user.userName);
    const second = await signedIn(agent, off, user.userName);
    expect(second.claims.sid).toBe(first.claims.sid);
    const post = nextPost(on.path);
    await agent.navigate(logoutUrl(rp.server, { id_token_hint: second.idToken }));
    await expectLogoutToken((await post).token, on.client, first.claims);
    expect(await logoutsDone(user.id)).toEqual([{ clients: [on.client.clientId], delivered: 1 }]);
    expect(postsTo(offPath)).toEqual([]);
  });

  it('signs the person out all the same when a client answers 500 or not at all, and logs a warning', async () => {
    const failing = await notifiedClient('/fail');
    const hanging = await notifiedClient('/hang');
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const { idToken } = await signedIn(agent, failing.client, user.userName);
    await signedIn(agent, hanging.client, user.userName);
    const sessionId = sessionIdOf(agent);
    const held = nextPost(hanging.path);
    const outcome = await agent.navigate(
      logoutUrl(rp.server, { id_token_hint: idToken, post_logout_redirect_uri: afterLogout }),
    );
    expect(outcome.left?.toString()).toBe(afterLogout);
    await expectEnded(rp.server, agent, sessionId);
    // The logout was answered, and the hanging client holds its post unanswered until the file's end.
    expect((await held).path).toBe(hanging.path);
    const warning = () => rp.server.logs.find((r) => r.level === 'warn' && r.clientId === failing.client.clientId);
    while (!warning()) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(warning()).toEqual({
      level: 'warn',
      msg: 'back-channel logout not delivered',
      clientId: failing.client.clientId,
      outcome: 'HTTP 500',
    });
    expect(JSON.stringify(rp.server.logs)).not.toContain(postsTo(failing.path)[0].token);
  });

  it('tells the clients of a session that a new sign-in in the browser replaces', async () => {
    const { client, path } = await notifiedClient();
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const before = await signedIn(agent, client, user.userName);
    const post = nextPost(path);
    const config = await rpConfig(rp.server, client);
    const again = oidc.buildAuthorizationUrl(config, {
      redirect_uri: TEST_REDIRECT_URI,
      scope: 'openid',
      prompt: 'login',
    });
    await signIn(agent, again, user.userName, testPassword);
    expect(sessionIdOf(agent)).not.toBe(before.claims.sid);
    await expectLogoutToken((await post).token, client, before.claims);
  });

  it('sends a logout token for each session a password reset ends, each with its sid', async () => {
    const { client, path } = await notifiedClient();
    const user = await createUser(rp.server);
    const browsers = [new Agent(rp.server.url), new Agent(rp.server.url)];
    const signIns: Awaited<ReturnType<typeof signedIn>>[] = [];
    for (const agent of browsers) signIns.push(await signedIn(agent, client, user.userName));
    const sids = signIns.map((s) => s.claims.sid);
    expect(new Set(sids).size).toBe(2);

    const links = actionLinkService(rp.server.ctx.db, rp.server.ctx.baseUrl);
    const link = await links.create('reset', user.id, { actor: 'test' });
    const reset = new Agent(rp.server.url);
    const page = (await reset.navigate(link.url)).page!;
    const password = 'N3w-Passw0rd-for-me!';
    const done = await reset.submit(page, { password, confirmPassword: password });
    expect(done.page?.status).toBe(200);
    expect(done.page?.html).toContain('Your password is set');

    expect(await logoutsDone(user.id)).toEqual([{ clients: [client.clientId, client.clientId], delivered: 2 }]);
    const posts = postsTo(path);
    expect(posts).toHaveLength(2);
    const tokens = [];
    for (const post of posts) {
      const sid = (await jwtVerify(post.token, jwks())).payload.sid;
      const signedIn = signIns.find((s) => s.claims.sid === sid)!;
      tokens.push(await expectLogoutToken(post.token, client, signedIn.claims));
    }
    expect(tokens.map((t) => t.sid).sort()).toEqual([...sids].sort());
  });

  it('sends a logout token when an offboarding link ends the sessions', async () => {
    const { client, path } = await notifiedClient();
    const user = await createUser(rp.server);
    const { claims } = await signedIn(new Agent(rp.server.url), client, user.userName);
    const link = await actionLinkService(rp.server.ctx.db, rp.server.ctx.baseUrl).create('offboard', user.id, {
      actor: 'test',
    });
    const browser = new Agent(rp.server.url);
    const page = (await browser.navigate(link.url)).page!;
    const post = nextPost(path);
    expect((await browser.submit(page, { confirm: 'yes' })).page?.status).toBe(200);
    await expectLogoutToken((await post).token, client, claims);
  });

  it('sends a logout token when a SAML 2.0 identity provider signs the person out', async () => {
    const signer = await uploadedSigner(rp.server);
    const saml = { name: unique('SamlBackchannel'), entityId: `urn:idsvc-test:${unique('idp')}` };
    const singleLogoutServices = [
      { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', location: 'http://127.0.0.1:7/idp/slo' },
    ];
    await createSaml20Connection(rp.server, { ...saml, signer, configuration: { singleLogoutServices } });
    const path = `/ok-${unique('saml')}`;
    const client = await createClient(rp.server, {
      configuration: {
        redirectUris: [TEST_REDIRECT_URI],
        enableSessionStatusChangeNotification: true,
        backchannelLogoutUri: `${endpointUrl}${path}`,
      },
      dependencyConnectionNames: [saml.name],
    });
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await startSamlSignIn(
      agent,
      authorizeUrl(rp.server, client, { whr: `name:${saml.name}`, state: 's' }),
    );
    const response = samlResponse({
      issuer: saml.entityId,
      destination: acsUrl(rp.server),
      audience: `${rp.server.url}/runtime/saml2`,
      inResponseTo: sent.id,
      nameId: String(user.email),
      nameIdFormat: EMAIL_FORMAT,
      signer,
    });
    const left = (await postToAcs(rp.server, agent, sent, response)).left!;
    const idToken = await idTokenFor(rp.server, client, left, 's');
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()) as JWTPayload;
    const post = nextPost(path);
    const request = samlLogoutRequestUrl({
      slo: sloUrl(rp.server),
      issuer: saml.entityId,
      nameId: String(user.email),
      nameIdFormat: EMAIL_FORMAT,
      sessionIndexes: [],
      signer,
    });
    await agent.navigate(request.url);
    await expectLogoutToken((await post).token, client, claims);
  });

  it('sends a logout token when the admin API removes live sessions (system setup session clean-up)', async () => {
    const { client, path } = await notifiedClient();
    const user = await createUser(rp.server);
    const { claims } = await signedIn(new Agent(rp.server.url), client, user.userName);
    const post = nextPost(path);
    const removed = await rp.server.admin.post(`${apiBase}/systemsetup/cleanupsession`, {
      body: { kinds: ['sessions'], expiredOnly: false },
    });
    expect(removed.status).toBe(200);
    await expectLogoutToken((await post).token, client, claims);
  });

  it('sends a logout token when the admin API disables the user, and another when it deletes one', async () => {
    const { client, path } = await notifiedClient();
    const user = await createUser(rp.server);
    const { claims } = await signedIn(new Agent(rp.server.url), client, user.userName);
    const post = nextPost(path);
    const disabled = await rp.server.admin.put(`${apiBase}/users/.batchStatus`, {
      body: [{ identityClaim: { type: 'id', value: user.id }, active: false }],
    });
    expect(disabled.status).toBe(200);
    await expectLogoutToken((await post).token, client, claims);

    const other = await createUser(rp.server);
    const second = await signedIn(new Agent(rp.server.url), client, other.userName);
    const next = nextPost(path);
    expect((await rp.server.admin.delete(`${apiBase}/users/${other.id}`)).status).toBe(200);
    const token = (await next).token;
    const { payload } = await jwtVerify(token, jwks());
    expect(payload.sid).toBe(second.claims.sid);
    // The deleted user's claims are gone: the token names the session alone.
    expect(payload.sub).toBeUndefined();
  });
});
