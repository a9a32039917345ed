import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, signIn } from './agent.js';
import { createOidcConnection, startUpstream, upstreamClientId } from './oidc-upstream.js';
import {
  authorizeUrl,
  type CreatedClient,
  createClient,
  createUser,
  events,
  runtimeServerPerFile,
  testPassword,
} from './support.js';
import {
  afterLogout,
  expectEnded,
  idTokenFor,
  logoutReturnUrl,
  logoutUrl,
  sessionIdOf,
  sessionRow,
} from './upstream-logout-support.js';

const rp = runtimeServerPerFile();
/** A provider with RP-Initiated Logout (this service's return address registered), and one without. */
let upstream: { url: string; server: Server };
let bare: { url: string; server: Server };
const names = { upstream: '', bare: '' };
const ids = { upstream: '', bare: '' };
let client: CreatedClient;
const decodeJwt = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

beforeAll(async () => {
  const callback = `${rp.server.url}/runtime/oauth2/callback.idp`;
  upstream = await startUpstream(callback, { postLogoutRedirectUris: [logoutReturnUrl(rp.server)] });
  bare = await startUpstream(callback, { endSession: false });
  ({ name: names.upstream, id: ids.upstream } = await createOidcConnection(rp.server, upstream.url));
  ({ name: names.bare, id: ids.bare } = await createOidcConnection(rp.server, bare.url));
  client = await createClient(rp.server, {
    configuration: { redirectUris: ['http://127.0.0.1:9/cb'], postLogoutRedirectUris: [afterLogout] },
    dependencyConnectionNames: ['UsernamePassword', names.upstream, names.bare],
  });
});
afterAll(() => {
  upstream?.server.close();
  bare?.server.close();
});

const authorize = (params: Record<string, string>) => authorizeUrl(rp.server, client, params);

/** Signs a new user in at the provider; returns the browser (which goes through the provider) and its ID token here. */
async function signedIn(provider: { url: string }, name: string) {
  const user = await createUser(rp.server);
  const agent = new Agent(rp.server.url, [provider.url]);
  let outcome = await agent.navigate(authorize({ whr: `name:${name}`, state: 's' }));
  outcome = await agent.submit(outcome.page!, { login: String(user.email), password: 'anything' });
  if (outcome.page) outcome = await agent.submit(outcome.page, {});
  const idToken = await idTokenFor(rp.server, client, outcome.left!, 's');
  return { user, agent, idToken, sessionId: sessionIdOf(agent) };
}

/** A browser with the same cookies that stops where the browser would leave this service. */
function stoppingCopy(agent: Agent): Agent {
  const copy = new Agent(rp.server.url);
  for (const [name, value] of agent.cookies) copy.cookies.set(name, value);
  return copy;
}

describe('logout of a session signed in through an upstream OpenID Connect provider', () => {
  it("ends the session, signs out at the provider's end_session_endpoint with its ID token, and finishes at the client", async () => {
    const { user, agent, idToken, sessionId } = await signedIn(upstream, names.upstream);
    const kept = (await sessionRow(rp.server, sessionId)).upstream!;
    expect(kept).toEqual({ connectionId: ids.upstream, protocol: 'oidc', idToken: expect.any(String) });
    expect(decodeJwt(kept.idToken)).toMatchObject({ iss: upstream.url, aud: upstreamClientId, sub: user.email });
    // Signed in at the provider: another browser holding only its cookies there is signed in here without asking.
    const probe = new Agent(rp.server.url, [upstream.url]);
    for (const [name, value] of agent.cookies) if (name !== 'idsvc_session') probe.cookies.set(name, value);
    const silent = await probe.navigate(authorize({ whr: `name:${names.upstream}`, prompt: 'none', state: 'p' }));
    expect(silent.left?.searchParams.has('code')).toBe(true);

    const browser = stoppingCopy(agent);
    const params = { id_token_hint: idToken, post_logout_redirect_uri: afterLogout, state: 'xyz' };
    const left = (await browser.navigate(logoutUrl(rp.server, params))).left!;
    const discovery = (await (await fetch(`${upstream.url}/.well-known/openid-configuration`)).json()) as {
      end_session_endpoint: string;
    };
    expect(`${left.origin}${left.pathname}`).toBe(discovery.end_session_endpoint);
    const { state, ...rest } = Object.fromEntries(left.searchParams);
    expect(rest).toEqual({
      id_token_hint: kept.idToken,
      client_id: upstreamClientId,
      post_logout_redirect_uri: logoutReturnUrl(rp.server),
    });
    expect(state).toMatch(/^v1\./);
    await expectEnded(rp.server, browser, sessionId);

    // The provider asks whether to sign out there, signs out and sends the browser back with the state.
    const confirm = (await agent.navigate(left.toString())).page!;
    expect(confirm.url.startsWith(upstream.url)).toBe(true);
    const back = await agent.submit(confirm, { logout: 'yes' });
    expect(back.left?.toString()).toBe(`${afterLogout}?state=xyz`);

    // Signed out at the provider too: a sign-in there without asking is refused.
    const before = events(rp.server, 4111).length;
    const again = await agent.navigate(authorize({ whr: `name:${names.upstream}`, prompt: 'none', state: 'n' }));
    expect(again.left?.searchParams.get('error')).toBe('login_required');
    expect(events(rp.server, 4111).slice(before)).toEqual([
      expect.objectContaining({ error: 'login_required', connection: names.upstream }),
    ]);
  });

  it('finishes here when the provider names no end_session_endpoint', async () => {
    const { agent, idToken, sessionId } = await signedIn(bare, names.bare);
    expect((await sessionRow(rp.server, sessionId)).upstream).toMatchObject({ protocol: 'oidc' });
    const browser = stoppingCopy(agent);
    const params = { id_token_hint: idToken, post_logout_redirect_uri: afterLogout, state: 'bare' };
    expect((await browser.navigate(logoutUrl(rp.server, params))).left?.toString()).toBe(`${afterLogout}?state=bare`);
    await expectEnded(rp.server, browser, sessionId);
  });

  it('logs a password session out as before: no upstream sign-in kept, straight to the client', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const left = await signIn(agent, authorize({ state: 'pw' }), user.userName, testPassword);
    const idToken = await idTokenFor(rp.server, client, left, 'pw');
    const sessionId = sessionIdOf(agent);
    expect((await sessionRow(rp.server, sessionId)).upstream).toBeNull();
    const before = events(rp.server, 4111).length;
    const params = { id_token_hint: idToken, post_logout_redirect_uri: afterLogout, state: 'pw' };
    expect((await agent.navigate(logoutUrl(rp.server, params))).left?.toString()).toBe(`${afterLogout}?state=pw`);
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
    await expectEnded(rp.server, agent, sessionId);
  });
});
