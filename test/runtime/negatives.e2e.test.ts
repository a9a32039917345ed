import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, formsOf, signIn } from './agent.js';
import {
  authorizeUrl,
  type CreatedClient,
  createClient,
  createUser,
  events,
  execSql,
  rpConfig,
  runtimeServerPerFile,
  testPassword,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
const script = '"><script>alert(1)</script>';
let client: CreatedClient;
let user: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  client = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri], allowedGrantTypes: ['authorization_code', 'implicit'] },
  });
  user = await createUser(rp.server);
});

const authorize = (params: Record<string, string>) => authorizeUrl(rp.server, client, params);

async function codeFor(config: oidc.Configuration, verifier?: string) {
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid',
    ...(verifier
      ? { code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }
      : {}),
  });
  return signIn(new Agent(rp.server.url), url, user.userName, testPassword);
}

async function exchange(callback: URL, who: CreatedClient, verifier?: string) {
  const response = await fetch(`${rp.server.url}/runtime/oauth2/token.idp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${who.clientId}:${who.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: redirectUri,
      ...(verifier ? { code_verifier: verifier } : {}),
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe('redirect addresses', () => {
  it('shows an error page, never a redirect, for an unregistered redirect address', async () => {
    for (const uri of ['https://evil.example/cb', `${redirectUri}/other`, 'http://127.0.0.1:9/cb?x=1']) {
      const response = await fetch(authorize({ redirect_uri: uri }), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('redirect_uri is not registered for this client');
    }
    expect(
      events(rp.server, 4110).some((e) => e.description === 'redirect_uri is not registered for this client'),
    ).toBe(true);
  });

  it('shows an error page for an unknown client', async () => {
    const response = await fetch(authorize({ client_id: 'nobody' }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('allows a plain http address only when the client allows it', async () => {
    const plain = await createClient(rp.server, { configuration: { redirectUris: ['https://app.example/cb'] } });
    const configuration = JSON.stringify({ redirectUris: ['http://app.example/cb'] });
    await execSql(rp.server)`update connections set configuration = configuration || ${configuration}::jsonb
      where client_id = ${plain.clientId}`;
    const url = `${rp.server.url}/runtime/oauth2/authorize.idp?${new URLSearchParams({
      client_id: plain.clientId,
      redirect_uri: 'http://app.example/cb',
      response_type: 'code',
      scope: 'openid',
      prompt: 'none',
    })}`;
    const refused = await fetch(url, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('may not use a plain http redirect_uri');
    await execSql(rp.server)`update connections
      set configuration = configuration || '{"allowPlainHttpRedirectUri": true}'::jsonb where client_id = ${plain.clientId}`;
    await new Promise((resolve) => setTimeout(resolve, 5200));
    const allowed = await fetch(url, { redirect: 'manual' });
    expect(allowed.status).toBe(302);
    expect(allowed.headers.get('location')).toMatch(/^http:\/\/app\.example\/cb\?error=login_required/);
  });
});

describe('the token endpoint refuses', () => {
  it('a code used twice, and revokes what the first use gave', async () => {
    const config = await rpConfig(rp.server, client);
    const callback = await codeFor(config);
    const first = await exchange(callback, client);
    expect(first.status).toBe(200);
    const second = await exchange(callback, client);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await oidc.tokenIntrospection(config, first.body.access_token)).toEqual({ active: false });
  });

  it('a PKCE verifier that does not match the challenge', async () => {
    const config = await rpConfig(rp.server, client);
    const callback = await codeFor(config, oidc.randomPKCECodeVerifier());
    const wrong = await exchange(callback, client, oidc.randomPKCECodeVerifier());
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('an expired code', async () => {
    const config = await rpConfig(rp.server, client);
    const callback = await codeFor(config);
    await execSql(rp.server)`update authorization_codes set expires_at = now() - interval '1 second'`;
    expect(await exchange(callback, client)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a code issued to another client', async () => {
    const config = await rpConfig(rp.server, client);
    const callback = await codeFor(config);
    const other = await createClient(rp.server, { configuration: { redirectUris: [redirectUri] } });
    expect(await exchange(callback, other)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a public client that asks for a code without PKCE (error sent to the redirect address)', async () => {
    const publicClient = await createClient(rp.server, {
      configuration: { publicClient: true, redirectUris: [redirectUri] },
    });
    const response = await fetch(authorize({ client_id: publicClient.clientId, state: 's1' }), { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '');
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: 'invalid_request',
      error_description: 'this client must use PKCE (code_challenge with S256)',
      state: 's1',
    });
  });
});

describe('the pages', () => {
  it('refuse a login form without its CSRF token (403) and do not sign in', async () => {
    const agent = new Agent(rp.server.url);
    const outcome = await agent.navigate(authorize({}));
    const [form] = formsOf(outcome.page!);
    const { csrf_token: _dropped, ...fields } = form.fields;
    const posted = await agent.navigate(`${rp.server.url}${form.action}`, {
      form: { ...fields, username: user.userName, password: testPassword },
    });
    expect(posted.page?.status).toBe(403);
    expect(posted.page?.html).toContain('CSRF');
    expect(agent.cookies.has('idsvc_session')).toBe(false);
  });

  it('refuse a CSRF token taken from another browser', async () => {
    const first = await new Agent(rp.server.url).navigate(authorize({}));
    const [form] = formsOf(first.page!);
    const other = new Agent(rp.server.url);
    await other.navigate(authorize({}));
    const posted = await other.navigate(`${rp.server.url}${form.action}`, {
      form: { ...form.fields, username: user.userName, password: testPassword },
    });
    expect(posted.page?.status).toBe(403);
  });

  it('escape a reflected <script> in every parameter they echo', async () => {
    const agent = new Agent(rp.server.url);
    const pages: string[] = [];
    pages.push((await agent.navigate(authorize({ login_hint: script, state: script, ui_locales: script }))).page!.html);
    const login = await agent.navigate(authorize({}));
    pages.push((await agent.submit(login.page!, { username: script, password: 'x' })).page!.html);
    pages.push(
      (await agent.navigate(`${rp.server.url}/runtime/oauth2/device.idp?user_code=${encodeURIComponent(script)}`)).page!
        .html,
    );
    const signedIn = new Agent(rp.server.url);
    await signIn(signedIn, authorize({}), user.userName, testPassword);
    const form = await signedIn.navigate(
      authorize({ response_type: 'code id_token', response_mode: 'form_post', nonce: script, state: script }),
    );
    pages.push(form.page!.html);
    const logout = await signedIn.navigate(
      `${rp.server.url}/runtime/openidconnect/logout.idp?${new URLSearchParams({ state: script, ui_locales: script })}`,
    );
    pages.push(logout.page!.html);
    for (const html of pages) {
      expect(html).not.toContain('<script>alert(1)</script>');
      expect(html).not.toContain('"><script>');
    }
    expect(pages[0]).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(pages[3]).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('send security headers: CSP without inline script, no framing, no caching', async () => {
    const response = await fetch(authorize({}));
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' http://127.0.0.1:9");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});
