import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { apiBase } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { Agent, signIn } from './agent.js';
import { backchannelEndpoint, jwtVerify } from './backchannel-support.js';
import {
  createClient,
  createUser,
  rpConfig,
  runtimeServerPerFile,
  TEST_REDIRECT_URI,
  testPassword,
  unique,
} from './support.js';
import { afterLogout, expectEnded, logoutUrl, sessionIdOf } from './upstream-logout-support.js';

const rp = runtimeServerPerFile();
const { url, nextPost, postsTo, jwks, logoutsDone, notifiedClient, signedIn, expectLogoutToken } =
  backchannelEndpoint(rp);

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
        backchannelLogoutUri: `${url()}${offPath}`,
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
});
