import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiBase } from '../helpers/api.js';
import { Agent, alertOf, formsOf, signIn } from './agent.js';
import {
  authorizeUrl,
  type CreatedClient,
  createClient,
  createUser,
  rpConfig,
  runtimeServerPerFile,
  testPassword,
  unique,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
let client: CreatedClient;
let user: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  client = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri], allowedGrantTypes: ['authorization_code', 'implicit'] },
  });
  user = await createUser(rp.server);
});

const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

const authorize = (params: Record<string, string>, who = client) => authorizeUrl(rp.server, who, params);

describe('hybrid responses and response modes', () => {
  it('code id_token in the fragment and by form_post (openid-client)', async () => {
    for (const mode of ['fragment', 'form_post'] as const) {
      const config = await rpConfig(rp.server, client);
      oidc.useCodeIdTokenResponseType(config);
      const nonce = oidc.randomNonce();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid',
        response_type: 'code id_token',
        response_mode: mode,
        nonce,
        state,
      });
      const agent = new Agent(rp.server.url);
      let outcome = await agent.navigate(url.toString());
      outcome = await agent.submit(outcome.page!, { username: user.userName, password: testPassword });
      let current: URL | Request;
      if (mode === 'fragment') {
        current = outcome.left!;
        expect(current.search).toBe('');
        expect(new URLSearchParams(current.hash.slice(1)).get('code')).toBeTruthy();
      } else {
        const [form] = formsOf(outcome.page!);
        expect(form.action).toBe(redirectUri);
        expect(outcome.page!.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+'/);
        current = new Request(redirectUri, { method: 'POST', body: new URLSearchParams(form.fields) });
      }
      const tokens = await oidc.authorizationCodeGrant(config, current, { expectedNonce: nonce, expectedState: state });
      expect(tokens.claims()?.sub).toBe(user.id);
    }
  });

  it('refuses query mode for a hybrid response and a hybrid response without nonce', async () => {
    const agent = new Agent(rp.server.url);
    const query = (
      await agent.navigate(authorize({ response_type: 'code id_token', response_mode: 'query', nonce: 'x' }))
    ).left!;
    expect(query.searchParams.get('error')).toBe('invalid_request');
    const noNonce = (await agent.navigate(authorize({ response_type: 'code id_token' }))).left!;
    expect(new URLSearchParams(noNonce.hash.slice(1)).get('error')).toBe('invalid_request');
  });
});

describe('prompt, max_age, login_hint, id_token_hint, acr_values', () => {
  it('prompt=none: login_required without a session, a code with one', async () => {
    const agent = new Agent(rp.server.url);
    const without = (await agent.navigate(authorize({ prompt: 'none', state: 'p' }))).left!;
    expect(Object.fromEntries(without.searchParams)).toMatchObject({ error: 'login_required', state: 'p' });
    await signIn(agent, authorize({}), user.userName, testPassword);
    const withSession = (await agent.navigate(authorize({ prompt: 'none' }))).left!;
    expect(withSession.searchParams.get('code')).toBeTruthy();
  });

  it('prompt=login asks again though a session exists, and auth_time moves', async () => {
    const config = await rpConfig(rp.server, client);
    const agent = new Agent(rp.server.url);
    const first = await oidc.authorizationCodeGrant(
      config,
      await signIn(agent, authorize({}), user.userName, testPassword),
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await agent.navigate(authorize({ prompt: 'login' }));
    expect(again.page?.html).toContain('name="password"');
    const done = await agent.submit(again.page!, { username: user.userName, password: testPassword });
    const second = await oidc.authorizationCodeGrant(config, done.left!);
    expect(second.claims()!.auth_time!).toBeGreaterThan(first.claims()!.auth_time!);
  });

  it('max_age: a session older than max_age must sign in again, and auth_time is in the ID token', async () => {
    const config = await rpConfig(rp.server, client);
    const agent = new Agent(rp.server.url);
    await signIn(agent, authorize({}), user.userName, testPassword);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', max_age: '1' });
    const outcome = await agent.navigate(url.toString());
    expect(outcome.page?.html).toContain('name="password"');
    const done = await agent.submit(outcome.page!, { username: user.userName, password: testPassword });
    const tokens = await oidc.authorizationCodeGrant(config, done.left!, { maxAge: 1 });
    expect(Math.abs(tokens.claims()!.auth_time! - Date.now() / 1000)).toBeLessThan(5);
    const fresh = await agent.navigate(url.toString());
    expect(fresh.left?.searchParams.get('code')).toBeTruthy();
  });

  it('login_hint prefills the user name', async () => {
    const page = (await new Agent(rp.server.url).navigate(authorize({ login_hint: 'someone@example.test' }))).page!;
    expect(formsOf(page)[0].fields.username).toBe('someone@example.test');
  });

  it('id_token_hint of another user: login_required with prompt=none, the login page without', async () => {
    const config = await rpConfig(rp.server, client);
    const other = await createUser(rp.server);
    const otherTokens = await oidc.authorizationCodeGrant(
      config,
      await signIn(new Agent(rp.server.url), authorize({}), other.userName, testPassword),
    );
    const agent = new Agent(rp.server.url);
    const mine = await oidc.authorizationCodeGrant(
      config,
      await signIn(agent, authorize({}), user.userName, testPassword),
    );
    const same = await agent.navigate(authorize({ prompt: 'none', id_token_hint: mine.id_token! }));
    expect(same.left?.searchParams.get('code')).toBeTruthy();
    const mismatch = await agent.navigate(authorize({ prompt: 'none', id_token_hint: otherTokens.id_token! }));
    expect(mismatch.left?.searchParams.get('error')).toBe('login_required');
    const asked = await agent.navigate(authorize({ id_token_hint: otherTokens.id_token! }));
    expect(asked.page?.html).toContain('name="password"');
    const forged = await agent.navigate(authorize({ id_token_hint: 'a.b.c' }));
    expect(forged.left?.searchParams.get('error')).toBe('invalid_request');
  });

  it('acr_values: recorded in the session, the ID token and the access token', async () => {
    const config = await rpConfig(rp.server, client);
    const agent = new Agent(rp.server.url);
    const acr = 'urn:idsvc:acr:gold';
    const callback = await signIn(agent, authorize({ acr_values: `${acr} urn:other` }), user.userName, testPassword);
    const tokens = await oidc.authorizationCodeGrant(config, callback);
    expect(tokens.claims()?.acr).toBe(acr);
    expect(payloadOf(tokens.access_token).acr).toBe(acr);
    // The session holds the class: asking for it again needs no sign-in, asking for another does.
    expect(
      (await agent.navigate(authorize({ acr_values: acr, prompt: 'none' }))).left?.searchParams.get('code'),
    ).toBeTruthy();
    const other = await agent.navigate(authorize({ acr_values: 'urn:idsvc:acr:platinum', prompt: 'none' }));
    expect(other.left?.searchParams.get('error')).toBe('login_required');
  });
});

describe('whr and the username-and-password connections', () => {
  it('chooses the connection by uuid:, name: and urn:, and the forgot-password link follows it', async () => {
    const second = await rp.server.admin.post(`${apiBase}/connections`, {
      body: {
        name: unique('Passwords'),
        connectionType: 'Authentication',
        pluginType: 'UsernamePassword',
        entityId: 'urn:idsvc:test:passwords',
        configuration: { maximumFailedAttempts: 3 },
      },
    });
    expect(second.status).toBe(200);
    const secondConn = second.body as { id: string; name: string };
    const builtIn = (await rp.server.admin.get(`${apiBase}/connections/UsernamePassword`)).body as { id: string };
    const both = await createClient(rp.server, {
      configuration: { redirectUris: [redirectUri] },
      dependencyConnectionNames: ['UsernamePassword', secondConn.name],
    });
    const forgotLink = async (params: Record<string, string>) => {
      const page = (await new Agent(rp.server.url).navigate(authorize(params, both))).page!;
      return /href="([^"]*ForgotPassword2[^"]*)"/.exec(page.html)?.[1].replace(/&amp;/g, '&');
    };
    // The higher index in the dependency list wins.
    expect(await forgotLink({})).toBe(`/runtime/ResetPassword/ForgotPassword2?connectionId=${secondConn.id}`);
    expect(await forgotLink({ whr: `uuid:${builtIn.id}` })).toBe(
      `/runtime/ResetPassword/ForgotPassword2?connectionId=${builtIn.id}`,
    );
    expect(await forgotLink({ whr: 'name:UsernamePassword' })).toBe(
      `/runtime/ResetPassword/ForgotPassword2?connectionId=${builtIn.id}`,
    );
    expect(await forgotLink({ whr: 'urn:urn:idsvc:test:passwords' })).toBe(
      `/runtime/ResetPassword/ForgotPassword2?connectionId=${secondConn.id}`,
    );
    const unknown = await new Agent(rp.server.url).navigate(authorize({ whr: 'name:Nope' }, both));
    expect(unknown.left?.searchParams.get('error')).toBe('invalid_request');
  });

  it("locks the user after the connection's maximum failed attempts, shared with the admin API", async () => {
    const strict = await rp.server.admin.post(`${apiBase}/connections`, {
      body: {
        name: unique('Strict'),
        connectionType: 'Authentication',
        pluginType: 'UsernamePassword',
        configuration: { maximumFailedAttempts: 3 },
      },
    });
    const strictClient = await createClient(rp.server, {
      configuration: { redirectUris: [redirectUri] },
      dependencyConnectionNames: [(strict.body as { name: string }).name],
    });
    const victim = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    let page = (await agent.navigate(authorize({}, strictClient))).page!;
    for (let i = 0; i < 3; i++) {
      page = (await agent.submit(page, { username: victim.userName, password: 'wrong' })).page!;
      expect(alertOf(page)).toBe('The user name or password is incorrect.');
    }
    page = (await agent.submit(page, { username: victim.userName, password: testPassword })).page!;
    expect(alertOf(page)).toBe('This account is locked. Ask an administrator to unlock it.');
    const locked = await rp.server.admin.get(`${apiBase}/lockedusers`);
    expect((locked.body as unknown as { id: string }[]).map((u) => u.id)).toContain(victim.id);
    const unlocked = await rp.server.admin.patch(`${apiBase}/lockedusers`, { body: { userId: victim.id } });
    expect(unlocked.status).toBe(200);
    const done = await agent.submit(page, { username: victim.userName, password: testPassword });
    expect(done.left?.searchParams.get('code')).toBeTruthy();
  });
});
