import { describe, expect, it } from 'vitest';
import { actionLinkService } from '../../packages/server/dist/services/action-links.js';
import { samlLogoutRequestUrl, samlResponse } from '../../packages/server/src/test-support/saml-identity-provider.js';
import { apiBase } from '../helpers/api.js';
import { Agent } from './agent.js';
import { backchannelEndpoint, type JWTPayload, jwtVerify } from './backchannel-support.js';
import {
  acsUrl,
  authorizeUrl,
  createSaml20Connection,
  EMAIL_FORMAT,
  postToAcs,
  startSamlSignIn,
  uploadedSigner,
} from './saml-idp.js';
import { createClient, createUser, runtimeServerPerFile, TEST_REDIRECT_URI, unique } from './support.js';
import { idTokenFor, sloUrl } from './upstream-logout-support.js';

const rp = runtimeServerPerFile();
const { url, nextPost, postsTo, jwks, logoutsDone, notifiedClient, signedIn, expectLogoutToken } =
  backchannelEndpoint(rp);

describe('back-channel logout when sessions end elsewhere than at logout', () => {
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
        backchannelLogoutUri: `${url()}${path}`,
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
