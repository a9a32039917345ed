import { beforeAll, describe, expect, it } from 'vitest';
import { apiBase } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { Agent } from './agent.js';
import { expectSigningOutPage, framesOf, signedIn } from './frontchannel-support.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  runtimeServerPerFile,
  TEST_REDIRECT_URI,
  unique,
} from './support.js';
import { afterLogout, expectEnded, logoutUrl, SIGNED_OUT, sessionIdOf } from './upstream-logout-support.js';

const rp = runtimeServerPerFile();
/** The clients' front-channel logout addresses: on the origins of their redirect URIs, never reached (no browser). */
const frontchannelA = 'http://127.0.0.1:9/fc?tenant=a%20b';
const frontchannelC = 'http://localhost:9/fc-c';
let withSid: CreatedClient;
let without: CreatedClient;
let sidless: CreatedClient;

beforeAll(async () => {
  withSid = await createClient(rp.server, {
    configuration: {
      redirectUris: [TEST_REDIRECT_URI],
      postLogoutRedirectUris: [afterLogout],
      frontchannelLogoutUri: frontchannelA,
    },
  });
  without = await createClient(rp.server, {
    configuration: { redirectUris: [TEST_REDIRECT_URI], postLogoutRedirectUris: [afterLogout] },
  });
  sidless = await createClient(rp.server, {
    configuration: {
      redirectUris: [TEST_REDIRECT_URI, 'http://localhost:9/cb'],
      frontchannelLogoutUri: frontchannelC,
      frontchannelLogoutSessionRequired: false,
    },
  });
});

/** An OAuth20 connection's creation through the admin API, with `configuration` over a client id. */
const postClient = (configuration: Record<string, unknown>) => {
  const name = unique('app');
  const body = {
    name,
    connectionType: 'Protocol',
    pluginType: 'OAuth20',
    configuration: { clientId: name, ...configuration },
  };
  return rp.server.admin.post(`${apiBase}/connections`, { body });
};

describe('discovery', () => {
  it('announces front-channel logout with iss and sid', async () => {
    const response = await fetch(`${rp.server.issuer}/.well-known/openid-configuration`);
    const doc = (await response.json()) as Record<string, unknown>;
    expect(doc.frontchannel_logout_supported).toBe(true);
    expect(doc.frontchannel_logout_session_supported).toBe(true);
  });
});

describe('configuration of front-channel logout', () => {
  it('refuses a frontchannelLogoutUri on another origin than the redirect URIs, naming the field', async () => {
    const refused = await postClient({
      redirectUris: ['https://app.example/cb'],
      frontchannelLogoutUri: 'https://app.example:8443/logout',
    });
    expectError(refused, 400, 'invalid_request');
    expect(refused.body).toMatchObject({
      message:
        'invalid OAuth20 configuration: configuration.frontchannelLogoutUri must have the scheme, host and port of ' +
        'one of the redirectUris',
      details: [
        {
          field: 'configuration.frontchannelLogoutUri',
          message: 'must have the scheme, host and port of one of the redirectUris',
        },
      ],
    });
  });

  it('refuses a plain-http frontchannelLogoutUri off the loopback interface, and stores one allowed', async () => {
    const configuration = { redirectUris: ['http://app.example/cb'], frontchannelLogoutUri: 'http://app.example/fc' };
    const refused = await postClient(configuration);
    expectError(refused, 400, 'invalid_request');
    expect((refused.body as { details: unknown[] }).details).toContainEqual({
      field: 'configuration.frontchannelLogoutUri',
      message: 'a plain http address needs allowPlainHttpRedirectUri (except on the loopback interface)',
    });
    const created = await postClient({ ...configuration, allowPlainHttpRedirectUri: true });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      configuration: { frontchannelLogoutUri: 'http://app.example/fc', frontchannelLogoutSessionRequired: true },
    });
  });
});

describe('front-channel logout (OpenID Connect Front-Channel Logout 1.0)', () => {
  it('loads the front-channel addresses of the session clients, then goes on to the post-logout address', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const first = await signedIn(rp.server, agent, withSid, user.userName);
    const second = await signedIn(rp.server, agent, without, user.userName);
    const third = await signedIn(rp.server, agent, sidless, user.userName);
    const sessionId = sessionIdOf(agent);
    expect([first.claims.sid, second.claims.sid, third.claims.sid]).toEqual([sessionId, sessionId, sessionId]);

    const outcome = await agent.navigate(
      logoutUrl(rp.server, { id_token_hint: first.idToken, post_logout_redirect_uri: afterLogout, state: 's t' }),
    );
    const iss = encodeURIComponent(rp.server.issuer);
    expectSigningOutPage(outcome.page!, {
      frames: [`http://127.0.0.1:9/fc?tenant=a%20b&iss=${iss}&sid=${first.claims.sid}`, 'http://localhost:9/fc-c'],
      next: `${afterLogout}?state=s+t`,
      origins: ['http://127.0.0.1:9', 'http://localhost:9'],
    });
    expect(outcome.page!.html).toContain('<html lang="en">');
    await expectEnded(rp.server, agent, sessionId);
  });

  it('loads the addresses when the hint is of a client without one, in Dutch for ui_locales=nl', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const { claims } = await signedIn(rp.server, agent, withSid, user.userName);
    const { idToken } = await signedIn(rp.server, agent, without, user.userName);
    const params = { id_token_hint: idToken, post_logout_redirect_uri: afterLogout, ui_locales: 'nl' };
    const page = (await agent.navigate(logoutUrl(rp.server, params))).page!;
    expectSigningOutPage(page, {
      frames: [`http://127.0.0.1:9/fc?tenant=a%20b&iss=${encodeURIComponent(rp.server.issuer)}&sid=${claims.sid}`],
      next: afterLogout,
      origins: ['http://127.0.0.1:9'],
    });
    expect(page.html).toContain('U wordt afgemeld bij de toepassingen die u gebruikte.');
  });

  it('shows the frames on the signed-out page when the logout has no post-logout address', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const { idToken } = await signedIn(rp.server, agent, sidless, user.userName);
    const page = (await agent.navigate(logoutUrl(rp.server, { id_token_hint: idToken }))).page!;
    expect(page.status).toBe(200);
    expect(page.html).toContain(SIGNED_OUT);
    expect(framesOf(page)).toEqual([frontchannelC]);
    expect(page.html).not.toContain('http-equiv="refresh"');
    expect(page.headers.get('content-security-policy')).toContain('; frame-src http://localhost:9;');
  });

  it('redirects as before when no client of the session has a front-channel address', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const { idToken } = await signedIn(rp.server, agent, without, user.userName);
    const sessionId = sessionIdOf(agent);
    const params = { id_token_hint: idToken, post_logout_redirect_uri: afterLogout, state: 'st' };
    const response = await fetch(logoutUrl(rp.server, params), {
      headers: { cookie: `idsvc_session=${sessionId}` },
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${afterLogout}?state=st`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe('');
    const signedOut = (await agent.navigate(logoutUrl(rp.server, {}))).page!;
    expect(signedOut.html).toContain(SIGNED_OUT);
    expect(signedOut.html).not.toContain('<iframe');
    expect(signedOut.headers.get('content-security-policy')).not.toContain('frame-src');
  });
});
