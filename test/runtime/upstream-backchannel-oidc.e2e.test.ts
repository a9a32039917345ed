import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Jose from '../../packages/server/node_modules/jose/dist/types/index.js';
import { type HttpEndpoint, startHttpEndpoint } from '../../packages/server/src/test-support/http-endpoint.js';
import { Agent } from './agent.js';
import { createOidcConnection, startUpstream, upstreamClientId, upstreamSecret } from './oidc-upstream.js';
import {
  authorizeUrl,
  type CreatedClient,
  createClient,
  createUser,
  events,
  execSql,
  rowsOf,
  runtimeServerPerFile,
} from './support.js';
import { expectSessionsAlive, expectSessionsEnded, sessionIdOf, sessionRow } from './upstream-logout-support.js';

/** jose, as the server has it (the tests' own dependencies do not include it). */
const joseEntry = '../../packages/server/node_modules/jose/dist/webapi/index.js';
const { SignJWT, importJWK, decodeJwt } = (await import(joseEntry)) as typeof Jose;

const rp = runtimeServerPerFile();
const EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const KID = 'upstream-key-1';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const signingKey = () => ({
  ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid: KID,
  alg: 'RS256',
  use: 'sig',
});
/** The provider's signing key (it signs its ID tokens and its logout tokens), and another key under the same kid. */
const providerKey = signingKey();
const strangerKey = signingKey();

/** A provider posting its logout tokens here, and another provider the same people sign in through. */
let upstream: { url: string; server: Server };
let other: { url: string; server: Server };
const names = { upstream: '', other: '' };
const ids = { upstream: '', other: '' };
let client: CreatedClient;
/** This service's client's back-channel logout endpoint: the logout tokens it received. */
let endpoint: HttpEndpoint;
const received: Record<string, unknown>[] = [];

const backchannelUrl = () => `${rp.server.url}/runtime/oauth2/backchannel-logout.idp`;

beforeAll(async () => {
  endpoint = await startHttpEndpoint((_req, res, body) => {
    received.push(decodeJwt(new URLSearchParams(body).get('logout_token') ?? ''));
    res.writeHead(200).end();
  });
  const callback = `${rp.server.url}/runtime/oauth2/callback.idp`;
  upstream = await startUpstream(callback, { backchannelLogoutUri: backchannelUrl(), jwks: { keys: [providerKey] } });
  other = await startUpstream(callback);
  ({ name: names.upstream, id: ids.upstream } = await createOidcConnection(rp.server, upstream.url, 'OidcBackchannel'));
  ({ name: names.other, id: ids.other } = await createOidcConnection(rp.server, other.url, 'OidcBackchannel'));
  client = await createClient(rp.server, {
    configuration: {
      redirectUris: ['http://127.0.0.1:9/cb'],
      enableSessionStatusChangeNotification: true,
      backchannelLogoutUri: `${endpoint.url}/backchannel`,
    },
    dependencyConnectionNames: ['UsernamePassword', names.upstream, names.other],
  });
});
afterAll(async () => {
  upstream?.server.close();
  other?.server.close();
  await endpoint?.close();
});

type Person = Awaited<ReturnType<typeof signedIn>>;

/** Signs the user (a new one unless given) in through the provider in a new browser; the `sub` and `sid` there. */
async function signedIn(provider: { url: string } = upstream, user?: Awaited<ReturnType<typeof createUser>>) {
  const person = user ?? (await createUser(rp.server));
  const name = provider === upstream ? names.upstream : names.other;
  const agent = new Agent(rp.server.url, [provider.url]);
  let outcome = await agent.navigate(authorizeUrl(rp.server, client, { whr: `name:${name}`, state: 's' }));
  outcome = await agent.submit(outcome.page!, { login: String(person.email), password: 'anything' });
  if (outcome.page) outcome = await agent.submit(outcome.page, {});
  expect(outcome.left?.searchParams.has('code')).toBe(true);
  const sessionId = sessionIdOf(agent);
  const idToken = decodeJwt((await sessionRow(rp.server, sessionId)).upstream!.idToken);
  return { user: person, agent, sessionId, sub: String(idToken.sub), sid: String(idToken.sid ?? '') };
}

const expectAlive = (...people: Person[]) => expectSessionsAlive(rp.server, client, people);
const expectEnded = (...people: Person[]) => expectSessionsEnded(rp.server, client, people);

const now = () => Math.floor(Date.now() / 1000);

/** A logout token of the provider (claims left undefined are left out), signed with its key unless told. */
async function logoutToken(claims: Record<string, unknown>, key: Record<string, unknown> = providerKey) {
  const payload = { iss: upstream.url, aud: upstreamClientId, iat: now(), jti: randomUUID(), events: { [EVENT]: {} } };
  const all = Object.fromEntries(Object.entries({ ...payload, ...claims }).filter(([, v]) => v !== undefined));
  return new SignJWT(all)
    .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'logout+jwt' })
    .sign(await importJWK(key, 'RS256'));
}

/** Posts the logout token (or the body given) as the provider does; the status, Cache-Control and body. */
async function post(token: string, body = new URLSearchParams({ logout_token: token }).toString()) {
  const response = await fetch(backchannelUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return { status: response.status, cacheControl: response.headers.get('cache-control'), body: await response.text() };
}

const ok = { status: 200, cacheControl: 'no-store', body: '' };

describe('back-channel logout by an upstream OpenID Connect provider', () => {
  it("keeps digests of the sub and sid of the provider's ID token on the session", async () => {
    const person = await signedIn();
    expect(person.sid).not.toBe('');
    const [row] = rowsOf(
      await execSql(rp.server)`select upstream_subject_key, upstream_session_key from sessions
        where id = ${person.sessionId}`,
    );
    expect(row).toEqual({
      upstream_subject_key: sha256(`${ids.upstream}\0${person.sub}`),
      upstream_session_key: sha256(`${ids.upstream}\0${person.sid}`),
    });
  });

  it('ends the session its sid (and sub) names, and no other', async () => {
    const person = await signedIn();
    const [sameUserElsewhere, sameUserOtherConnection, someoneElse] = [
      await signedIn(upstream, person.user),
      await signedIn(other, person.user),
      await signedIn(),
    ];
    expect(sameUserElsewhere.sid).not.toBe(person.sid);
    const before = events(rp.server, 4111).length;
    expect(await post(await logoutToken({ sub: person.sub, sid: person.sid }))).toEqual(ok);
    await expectEnded(person);
    await expectAlive(sameUserElsewhere, sameUserOtherConnection, someoneElse);
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
  });

  it('ends the session of a sid-only token', async () => {
    const person = await signedIn();
    const sameUser = await signedIn(upstream, person.user);
    expect(await post(await logoutToken({ sid: person.sid }))).toEqual(ok);
    await expectEnded(person);
    await expectAlive(sameUser);
  });

  it("ends every session of a sub-only token's person through that connection, and only those", async () => {
    const person = await signedIn();
    const [again, throughOther, someoneElse] = [
      await signedIn(upstream, person.user),
      await signedIn(other, person.user),
      await signedIn(),
    ];
    expect(throughOther.sub).toBe(person.sub);
    expect(await post(await logoutToken({ sub: person.sub }))).toEqual(ok);
    await expectEnded(person, again);
    await expectAlive(throughOther, someoneElse);
  });

  it('answers 200 when no session matches', async () => {
    expect(await post(await logoutToken({ sid: 'no-such-session', sub: 'nobody@example.test' }))).toEqual(ok);
  });

  it('tells the clients here that asked for it, with a logout token of the ended session', async () => {
    const person = await signedIn();
    expect(await post(await logoutToken({ sid: person.sid }))).toEqual(ok);
    while (!received.some((token) => token.sid === person.sessionId)) await new Promise((r) => setTimeout(r, 20));
    expect(received.find((token) => token.sid === person.sessionId)).toMatchObject({
      iss: rp.server.issuer,
      aud: client.clientId,
      sub: person.user.id,
      events: { [EVENT]: {} },
    });
  });

  it('ends the session when the person signs out at the provider, which posts its own logout token', async () => {
    const person = await signedIn();
    const before = events(rp.server, 4111).length;
    const discovery = (await (await fetch(`${upstream.url}/.well-known/openid-configuration`)).json()) as {
      end_session_endpoint: string;
    };
    const confirm = (await person.agent.navigate(discovery.end_session_endpoint)).page!;
    const done = await person.agent.submit(confirm, { logout: 'yes' });
    expect(done.page?.url.startsWith(upstream.url)).toBe(true);
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
    await expectEnded(person);
  });
});

describe('logout tokens refused', () => {
  let person: Person;
  beforeAll(async () => {
    person = await signedIn();
  });

  const unsigned = (claims: Record<string, unknown>) =>
    `${[{ alg: 'none' }, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.')}.`;
  const hmac = async (claims: Record<string, unknown>) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(upstreamSecret));
  const stranger = 'http://127.0.0.1:9/unknown-issuer';
  /** What the token is, how it is made, the reason, and the connection event 4111 names (default the provider's). */
  const cases: [string, (p: Person) => Promise<string> | string, string, (() => string)?][] = [
    [
      'signed by another key',
      (p) => logoutToken({ sid: p.sid }, strangerKey),
      'the logout token does not verify: signature verification failed',
    ],
    [
      'from an unknown issuer',
      (p) => logoutToken({ sid: p.sid, iss: stranger }),
      `the logout token is issued by ${stranger}, not by a known provider`,
      () => stranger,
    ],
    [
      'for another audience',
      (p) => logoutToken({ sid: p.sid, aud: ['someone-else'] }),
      "the logout token is not addressed to this service's client there (aud)",
    ],
    [
      'without the back-channel logout event',
      (p) => logoutToken({ sid: p.sid, events: undefined }),
      `the logout token has no ${EVENT} event`,
    ],
    [
      'whose event is not an object',
      (p) => logoutToken({ sid: p.sid, events: { [EVENT]: true } }),
      `the logout token has no ${EVENT} event`,
    ],
    ['with a nonce', (p) => logoutToken({ sid: p.sid, nonce: 'n-1' }), 'the logout token carries a nonce'],
    ['naming neither sub nor sid', () => logoutToken({}), 'the logout token names neither sub nor sid'],
    ['without a jti', (p) => logoutToken({ sid: p.sid, jti: undefined }), 'the logout token has no jti'],
    [
      'expired',
      (p) => logoutToken({ sid: p.sid, iat: now() - 400, exp: now() - 301 }),
      'the logout token has expired (exp)',
    ],
    ['issued too long ago', (p) => logoutToken({ sid: p.sid, iat: now() - 611 }), 'the logout token is too old (iat)'],
    [
      'issued in the future',
      (p) => logoutToken({ sid: p.sid, iat: now() + 400 }),
      'the logout token is issued in the future (iat)',
    ],
    [
      'unsigned (alg none)',
      (p) =>
        unsigned({
          iss: upstream.url,
          aud: upstreamClientId,
          iat: now(),
          jti: 'u',
          sid: p.sid,
          events: { [EVENT]: {} },
        }),
      'the logout token is not signed',
      () => upstream.url,
    ],
    [
      'signed with the client secret (HS256)',
      (p) =>
        hmac({ iss: upstream.url, aud: upstreamClientId, iat: now(), jti: 'h', sid: p.sid, events: { [EVENT]: {} } }),
      "the logout token is signed with HS256: only the provider's published keys are taken",
      () => upstream.url,
    ],
    ['that is no JWT', () => 'not-a-token', 'the logout token is not a signed JWT', () => ''],
  ];
  for (const [what, make, description, connection] of cases) {
    it(`refuses a token ${what}: 400 invalid_request, event 4111, nothing ended`, async () => {
      const before = events(rp.server, 4111).length;
      const answer = await post(await make(person));
      expect(answer).toEqual({
        status: 400,
        cacheControl: 'no-store',
        body: JSON.stringify({ error: 'invalid_request', error_description: description }),
      });
      const named = connection?.() ?? names.upstream;
      expect(events(rp.server, 4111).slice(before)).toEqual([
        expect.objectContaining({ eventId: 4111, error: 'invalid_request', description, connection: named }),
      ]);
      await expectAlive(person);
    });
  }

  it('refuses a request without logout_token, and one that is not a form', async () => {
    const before = events(rp.server, 4111).length;
    expect((await post('', 'token=x')).body).toBe(
      JSON.stringify({ error: 'invalid_request', error_description: 'the request holds no logout_token' }),
    );
    const json = await fetch(backchannelUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({
      error: 'invalid_request',
      error_description: 'the body must be application/x-www-form-urlencoded',
    });
    expect(
      events(rp.server, 4111)
        .slice(before)
        .map((e) => [e.description, e.connection]),
    ).toEqual([
      ['the request holds no logout_token', ''],
      ['the body must be application/x-www-form-urlencoded', ''],
    ]);
  });

  it('takes a jti once per connection: the token again, or another with its jti, is refused', async () => {
    const jti = randomUUID();
    const first = await logoutToken({ sid: 'no-such-session', jti });
    expect(await post(first)).toEqual(ok);
    const before = events(rp.server, 4111).length;
    for (const token of [first, await logoutToken({ sid: person.sid, jti })]) {
      expect(await post(token)).toEqual({
        status: 400,
        cacheControl: 'no-store',
        body: JSON.stringify({ error: 'invalid_request', error_description: 'the logout token was used before (jti)' }),
      });
    }
    expect(events(rp.server, 4111).slice(before)).toEqual([
      expect.objectContaining({ description: 'the logout token was used before (jti)', connection: names.upstream }),
      expect.objectContaining({ description: 'the logout token was used before (jti)', connection: names.upstream }),
    ]);
    await expectAlive(person);
  });
});
