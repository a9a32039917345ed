import { beforeAll, describe, expect, it } from 'vitest';
import { apiBase } from '../helpers/api.js';
import { Agent } from './agent.js';
import { authorizeUrl, type CreatedClient, createClient, createUser, events, execSql, unique } from './support.js';
import {
  afterLogout,
  expectEnded,
  idTokenFor,
  logoutReturnUrl,
  logoutUrl,
  sessionIdOf,
  sessionRow,
} from './upstream-logout-support.js';
import { stsEntityId, stsUrl, wsfedRelyingParty } from './wsfed-sts.js';

const sts = wsfedRelyingParty();
const { rp, the } = sts;
/** The sign-out address of a second service: never reached. */
const signOutUrl = 'http://127.0.0.1:9/adfs/ls/signout';
let withSignOut: { name: string; id: string };
let client: CreatedClient;

beforeAll(async () => {
  const name = unique('WsFedSignOut');
  const created = await rp.server.admin.post(`${apiBase}/connections`, {
    body: {
      name,
      connectionType: 'Authentication',
      pluginType: 'WsFederation',
      configuration: {
        entityId: `${stsEntityId}-2`,
        singleSignOnUrl: stsUrl,
        singleLogoutUrl: signOutUrl,
        signingCertificates: [the.signer.thumbprint],
      },
    },
  });
  expect(created.status).toBe(200);
  withSignOut = { name, id: (created.body as { id: string }).id };
  client = await createClient(rp.server, {
    configuration: { redirectUris: ['http://127.0.0.1:9/cb'], postLogoutRedirectUris: [afterLogout] },
    dependencyConnectionNames: ['UsernamePassword', the.name, name],
  });
});

/** Signs a new user in through the connection; returns the browser and its ID token here. */
async function signedIn(connection: string, issuer = stsEntityId) {
  const user = await createUser(rp.server);
  const agent = new Agent(rp.server.url);
  const sent = (await agent.navigate(authorizeUrl(rp.server, client, { whr: `name:${connection}`, state: 's' }))).left!;
  const left = (await sts.post(agent, sent, sts.token({ nameId: String(user.email), issuer }))).left!;
  return { agent, idToken: await idTokenFor(rp.server, client, left, 's'), sessionId: sessionIdOf(agent) };
}

describe('logout of a session signed in through a WS-Federation security token service', () => {
  it('ends the session, sends the browser to the sign-on address with wa=wsignout1.0 and wreply, and finishes at the client', async () => {
    const { agent, idToken, sessionId } = await signedIn(the.name);
    expect((await sessionRow(rp.server, sessionId)).upstream).toMatchObject({
      connectionId: the.connectionId,
      protocol: 'wsfed',
    });
    const params = { id_token_hint: idToken, post_logout_redirect_uri: afterLogout, state: 'xyz' };
    const left = (await agent.navigate(logoutUrl(rp.server, params))).left!;
    expect(`${left.origin}${left.pathname}`).toBe(stsUrl);
    const { wreply, ...rest } = Object.fromEntries(left.searchParams);
    expect(rest).toEqual({ wa: 'wsignout1.0', wtrealm: sts.realm() });
    const reply = new URL(wreply);
    expect(`${reply.origin}${reply.pathname}`).toBe(logoutReturnUrl(rp.server));
    expect([...reply.searchParams.keys()]).toEqual(['state']);
    expect(reply.searchParams.get('state')).toMatch(/^v1\./);
    await expectEnded(rp.server, agent, sessionId);

    const back = await agent.navigate(wreply);
    expect(back.left?.toString()).toBe(`${afterLogout}?state=xyz`);
  });

  it("goes to the connection's sign-out address when it has one, and back to the signed-out page in its language", async () => {
    const { agent, idToken, sessionId } = await signedIn(withSignOut.name, `${stsEntityId}-2`);
    const left = (await agent.navigate(logoutUrl(rp.server, { id_token_hint: idToken, ui_locales: 'nl' }))).left!;
    expect(`${left.origin}${left.pathname}`).toBe(signOutUrl);
    expect(left.searchParams.get('wa')).toBe('wsignout1.0');
    await expectEnded(rp.server, agent, sessionId);
    const back = (await agent.navigate(left.searchParams.get('wreply')!)).page!;
    expect(back.status).toBe(200);
    expect(back.html).toContain('U bent afgemeld.');
  });

  it('finishes here, without going to the service, when the connection was disabled since the sign-in', async () => {
    const user = await createUser(rp.server);
    const name = unique('WsFedOff');
    const created = await rp.server.admin.post(`${apiBase}/connections`, {
      body: {
        name,
        connectionType: 'Authentication',
        pluginType: 'WsFederation',
        configuration: {
          entityId: `${stsEntityId}-3`,
          singleSignOnUrl: stsUrl,
          signingCertificates: [the.signer.thumbprint],
        },
      },
    });
    expect(created.status).toBe(200);
    const own = await createClient(rp.server, {
      configuration: { redirectUris: ['http://127.0.0.1:9/cb'], postLogoutRedirectUris: [afterLogout] },
      dependencyConnectionNames: [name],
    });
    const agent = new Agent(rp.server.url);
    const sent = (await agent.navigate(authorizeUrl(rp.server, own, { whr: `name:${name}`, state: 's' }))).left!;
    const token = sts.token({ nameId: String(user.email), issuer: `${stsEntityId}-3` });
    const idToken = await idTokenFor(rp.server, own, (await sts.post(agent, sent, token)).left!, 's');
    const sessionId = sessionIdOf(agent);
    const id = (created.body as { id: string }).id;
    await execSql(rp.server)`update connections set enabled = false where id = ${id}`;
    const before = events(rp.server, 4111).length;
    const params = { id_token_hint: idToken, post_logout_redirect_uri: afterLogout, state: 'off' };
    expect((await agent.navigate(logoutUrl(rp.server, params))).left?.toString()).toBe(`${afterLogout}?state=off`);
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
    await expectEnded(rp.server, agent, sessionId);
  });

  it('answers 400 to a return with a forged, foreign-kind or expired continuation', async () => {
    const agent = new Agent(rp.server.url);
    const seal = (value: object) => rp.server.ctx.box.seal(JSON.stringify(value));
    const later = Date.now() + 60_000;
    const base = { connectionId: the.connectionId, returnTo: afterLogout, state: 'x' };
    for (const state of [
      'v1.forged.value.here',
      seal({ ...base, kind: 'saml-logout', expiresAt: later }),
      seal({ ...base, kind: 'upstream-logout', expiresAt: Date.now() - 1 }),
    ]) {
      const page = (await agent.navigate(`${logoutReturnUrl(rp.server)}?${new URLSearchParams({ state })}`)).page!;
      expect(page.status).toBe(400);
      expect(page.html).toContain('the sign-out has expired or was not started here');
    }
    const fresh = seal({ ...base, kind: 'upstream-logout', expiresAt: later });
    const ok = await agent.navigate(`${logoutReturnUrl(rp.server)}?${new URLSearchParams({ state: fresh })}`);
    expect(ok.left?.toString()).toBe(`${afterLogout}?state=x`);
  });
});
