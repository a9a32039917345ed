import { beforeAll, describe, expect, it } from 'vitest';
import {
  type SamlSigner,
  samlLogoutRequestPost,
  samlLogoutRequestUrl,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import { expectSigningOutPage, refreshOf, withSession } from './frontchannel-support.js';
import {
  createSaml20Connection,
  EMAIL_FORMAT,
  HTTP_POST,
  HTTP_REDIRECT,
  postedMessage,
  uploadedSigner,
} from './saml-idp.js';
import { type CreatedClient, createClient, runtimeServerPerFile, unique } from './support.js';
import {
  afterLogout,
  expectEnded,
  idTokenFor,
  logoutResponseUrl,
  logoutUrl,
  redirectMessage,
  samlSignedIn,
  sloUrl,
} from './upstream-logout-support.js';

const rp = runtimeServerPerFile();
/** The client's front-channel logout address, on the origin of its redirect URI: never reached (no browser). */
const frontchannel = 'http://127.0.0.1:9/fc';
/** A provider whose single logout service takes HTTP-Redirect, and one that takes HTTP-POST only: never reached. */
const redirectIdp = {
  name: '',
  entityId: 'urn:idsvc-test:fc-saml-redirect',
  slo: 'http://127.0.0.1:7/idp/slo',
  sloResponse: 'http://127.0.0.1:7/idp/slo/response',
};
const postIdp = {
  name: '',
  entityId: 'urn:idsvc-test:fc-saml-post',
  slo: 'http://127.0.0.1:7/idp2/slo',
  sloResponse: 'http://127.0.0.1:7/idp2/slo/response',
};
let signer: SamlSigner;
let client: CreatedClient;

beforeAll(async () => {
  signer = await uploadedSigner(rp.server);
  for (const [idp, binding] of [
    [redirectIdp, HTTP_REDIRECT],
    [postIdp, HTTP_POST],
  ] as const) {
    idp.name = unique('SamlFrontchannel');
    await createSaml20Connection(rp.server, {
      name: idp.name,
      entityId: idp.entityId,
      signer,
      configuration: { singleLogoutServices: [{ binding, location: idp.slo, responseLocation: idp.sloResponse }] },
    });
  }
  client = await createClient(rp.server, {
    configuration: {
      redirectUris: ['http://127.0.0.1:9/cb'],
      postLogoutRedirectUris: [afterLogout],
      frontchannelLogoutUri: frontchannel,
    },
    dependencyConnectionNames: ['UsernamePassword', redirectIdp.name, postIdp.name],
  });
});

/** Signs a new user in to the client through the provider; the browser, its ID token, NameID and SessionIndex. */
async function signedIn(idp: { name: string; entityId: string }) {
  const { agent, left, nameId, sessionIndex, sessionId } = await samlSignedIn(rp.server, client, signer, idp);
  return { agent, idToken: await idTokenFor(rp.server, client, left, 's'), nameId, sessionIndex, sessionId };
}

describe('front-channel logout of sessions signed in through an upstream SAML 2.0 provider', () => {
  it('loads the addresses when the logout is back from the provider sign-out, then goes on to the client', async () => {
    const { agent, idToken, sessionId } = await signedIn(redirectIdp);
    const params = { id_token_hint: idToken, post_logout_redirect_uri: afterLogout, state: 'xyz' };
    const left = (await agent.navigate(logoutUrl(rp.server, params))).left!;
    expect(`${left.origin}${left.pathname}`).toBe(redirectIdp.slo);
    await expectEnded(rp.server, agent, sessionId);
    const sent = redirectMessage(left);
    const back = await agent.navigate(
      logoutResponseUrl({
        slo: sloUrl(rp.server),
        issuer: redirectIdp.entityId,
        inResponseTo: /\bID="([^"]+)"/.exec(sent)?.[1] ?? '',
        relayState: left.searchParams.get('RelayState')!,
        signer,
      }),
    );
    expectSigningOutPage(back.page!, {
      frames: [withSession(rp.server, frontchannel, sessionId)],
      next: `${afterLogout}?state=xyz`,
      origins: ['http://127.0.0.1:9'],
    });
  });

  it('loads the addresses when the provider LogoutRequest ends the session, then answers by redirect', async () => {
    const person = await signedIn(redirectIdp);
    const request = samlLogoutRequestUrl({
      slo: sloUrl(rp.server),
      issuer: redirectIdp.entityId,
      nameId: person.nameId,
      nameIdFormat: EMAIL_FORMAT,
      sessionIndexes: [person.sessionIndex],
      relayState: 'idp state',
      signer,
    });
    const page = (await person.agent.navigate(request.url)).page!;
    await expectEnded(rp.server, person.agent, person.sessionId);
    const answer = new URL(refreshOf(page)!.url);
    expect(`${answer.origin}${answer.pathname}`).toBe(redirectIdp.sloResponse);
    expect(answer.searchParams.get('RelayState')).toBe('idp state');
    expect(redirectMessage(answer, 'SAMLResponse')).toContain(` InResponseTo="${request.id}"`);
    expectSigningOutPage(page, {
      frames: [withSession(rp.server, frontchannel, person.sessionId)],
      next: answer.toString(),
      origins: ['http://127.0.0.1:9'],
    });
  });

  it('goes on to the page here that posts the answer when the provider takes HTTP-POST only', async () => {
    const person = await signedIn(postIdp);
    const request = samlLogoutRequestPost(
      {
        slo: sloUrl(rp.server),
        issuer: postIdp.entityId,
        nameId: person.nameId,
        nameIdFormat: EMAIL_FORMAT,
        sessionIndexes: [person.sessionIndex],
        relayState: 'idp state',
      },
      { signer },
    );
    const page = (await person.agent.navigate(sloUrl(rp.server), { form: request.form })).page!;
    await expectEnded(rp.server, person.agent, person.sessionId);
    const next = refreshOf(page)!.url;
    expect(next).toMatch(new RegExp(`^${sloUrl(rp.server)}\\?send=[\\w-]+$`));
    expectSigningOutPage(page, {
      frames: [withSession(rp.server, frontchannel, person.sessionId)],
      next,
      origins: ['http://127.0.0.1:9'],
    });
    const posting = (await person.agent.navigate(next)).page!;
    const posted = postedMessage(posting);
    expect(posted.action).toBe(postIdp.sloResponse);
    expect(posted.fields.RelayState).toBe('idp state');
    expect(posted.xml).toContain(` InResponseTo="${request.id}"`);
  });
});
