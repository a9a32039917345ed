import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiBase } from '../helpers/api.js';
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
const afterLogout = 'http://127.0.0.1:9/bye';
let client: CreatedClient;

beforeAll(async () => {
  client = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri], postLogoutRedirectUris: [afterLogout], consentRequired: true },
  });
});

async function authorizationUrl(config: oidc.Configuration, extra: Record<string, string> = {}) {
  return oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid profile', ...extra });
}

describe('consent per user and protocol connection', () => {
  it('asks once, stores the consent, lists it in the admin API, and asks again after a reset', async () => {
    const user = await createUser(rp.server);
    const config = await rpConfig(rp.server, client);
    const agent = new Agent(rp.server.url);
    let outcome = await agent.navigate((await authorizationUrl(config)).toString());
    outcome = await agent.submit(outcome.page!, { username: user.userName, password: testPassword });
    expect(outcome.page?.html).toContain('name="consent" value="allow"');
    expect(outcome.page?.html).toContain('name="consent" value="deny"');
    outcome = await agent.submit(outcome.page!, {}, { name: 'consent', value: 'allow' });
    expect(outcome.left?.searchParams.get('code')).toBeTruthy();

    const listed = await rp.server.admin.get(`${apiBase}/users/consent`, { query: { userId: user.id } });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ protocolConnectionName: client.name, scopes: ['openid', 'profile'] }),
    ]);

    // Consent given: the next request goes straight back.
    const again = await agent.navigate((await authorizationUrl(config)).toString());
    expect(again.left?.searchParams.get('code')).toBeTruthy();

    const reset = await rp.server.admin.put(`${apiBase}/connections/resetconsent/${client.name}`);
    expect(reset.status).toBe(200);
    const asked = await agent.navigate((await authorizationUrl(config)).toString());
    expect(asked.page?.html).toContain('name="consent"');
  });

  it('answers access_denied to the client when the person denies, and asks again after the consent is deleted', async () => {
    const user = await createUser(rp.server);
    const config = await rpConfig(rp.server, client);
    const agent = new Agent(rp.server.url);
    const state = oidc.randomState();
    const denied = await signIn(agent, await authorizationUrl(config, { state }), user.userName, testPassword, 'deny');
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({
      error: 'access_denied',
      state,
      iss: rp.server.issuer,
    });

    await signIn(agent, await authorizationUrl(config), user.userName, testPassword, 'allow');
    const removed = await rp.server.admin.delete(`${apiBase}/users/consent`, {
      query: { userId: user.id, connectionName: client.name },
    });
    expect(removed.status).toBe(200);
    const asked = await agent.navigate((await authorizationUrl(config)).toString());
    expect(asked.page?.html).toContain('name="consent"');
  });

  it('answers consent_required to prompt=none when consent is missing', async () => {
    const user = await createUser(rp.server);
    const config = await rpConfig(rp.server, client);
    const agent = new Agent(rp.server.url);
    const other = await createClient(rp.server, { configuration: { redirectUris: [redirectUri] } });
    await signIn(agent, await authorizationUrl(await rpConfig(rp.server, other)), user.userName, testPassword);
    const outcome = await agent.navigate((await authorizationUrl(config, { prompt: 'none' })).toString());
    expect(outcome.left?.searchParams.get('error')).toBe('consent_required');
  });
});

describe('end session (RP-initiated logout)', () => {
  async function signedIn() {
    const user = await createUser(rp.server);
    const plain = await createClient(rp.server, {
      configuration: { redirectUris: [redirectUri], postLogoutRedirectUris: [afterLogout] },
    });
    const config = await rpConfig(rp.server, plain);
    const agent = new Agent(rp.server.url);
    const nonce = oidc.randomNonce();
    const callback = await signIn(agent, await authorizationUrl(config, { nonce }), user.userName, testPassword);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { expectedNonce: nonce });
    return { config, agent, tokens };
  }

  it('signs out at once with an id_token_hint and returns to the registered address with state', async () => {
    const { config, agent, tokens } = await signedIn();
    const logout = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: afterLogout,
      state: 'xyz',
    });
    const outcome = await agent.navigate(logout.toString());
    expect(outcome.left?.toString()).toBe(`${afterLogout}?state=xyz`);
    // The session is over: prompt=none now needs a sign-in.
    const after = await agent.navigate((await authorizationUrl(config, { prompt: 'none' })).toString());
    expect(after.left?.searchParams.get('error')).toBe('login_required');
  });

  it('asks for confirmation without a hint, and signs out after the confirmed (CSRF-protected) form', async () => {
    const { config, agent } = await signedIn();
    const confirm = await agent.navigate(`${rp.server.url}/runtime/openidconnect/logout.idp`);
    expect(confirm.page?.html).toContain('name="logout" value="yes"');
    const forged = await agent.navigate(`${rp.server.url}/runtime/openidconnect/logout.idp`, {
      form: { logout: 'yes' },
    });
    expect(forged.page?.status).toBe(403);
    const done = await agent.submit(confirm.page!, {}, { name: 'logout', value: 'yes' });
    expect(done.page?.html).toContain('You are signed out.');
    const after = await agent.navigate((await authorizationUrl(config, { prompt: 'none' })).toString());
    expect(after.left?.searchParams.get('error')).toBe('login_required');
  });

  it('shows an error page, never a redirect, for an unregistered post-logout address', async () => {
    const { config, agent, tokens } = await signedIn();
    const logout = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: 'https://evil.example/steal',
    });
    const outcome = await agent.navigate(logout.toString());
    expect(outcome.page?.status).toBe(400);
    expect(outcome.page?.html).toContain('post_logout_redirect_uri is not registered');
  });
});
