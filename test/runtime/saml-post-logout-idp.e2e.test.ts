import { beforeAll, describe, expect, it } from 'vitest';
import {
  type PostSigning,
  postSignatureVerifies,
  redirectSignatureVerifies,
  type SamlLogoutRequestInput,
  type SamlSigner,
  samlLogoutRequestPost,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import type { Page } from './agent.js';
import { EMAIL_FORMAT, uploadedSigner } from './saml-idp.js';
import {
  expectPostPage,
  NS,
  postLogoutSignedIn,
  type SignedIn,
  samlPostLogoutSetup,
  wrapped,
} from './saml-post-logout-support.js';
import { type CreatedClient, events } from './support.js';
import {
  expectEnded,
  expectSessionsAlive,
  promptNone,
  redirectMessage,
  sessionIdOf,
  sessionRow,
  sloUrl,
} from './upstream-logout-support.js';

const setup = samlPostLogoutSetup();
const { rp, postIdp, redirectIdp } = setup;
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
const NOT_VERIFIED = 'the logout request does not verify';
let signer: SamlSigner;
let client: CreatedClient;
let serviceCertificate: string;
beforeAll(() => {
  ({ signer, client, serviceCertificate } = setup);
});
const signedIn = (provider?: { name: string; entityId: string }) => postLogoutSignedIn(setup, provider);

describe('single logout started by the SAML 2.0 identity provider (HTTP-POST)', () => {
  /** The provider's LogoutRequest for the sign-in by HTTP-POST, signed (RSA-SHA256) unless `signing` is null. */
  const logoutRequest = (
    person: SignedIn,
    input: Partial<SamlLogoutRequestInput> = {},
    signing: PostSigning | null = { signer },
    change?: (xml: string) => string,
  ) =>
    samlLogoutRequestPost(
      {
        slo: sloUrl(rp.server),
        issuer: postIdp.entityId,
        nameId: person.nameId,
        nameIdFormat: EMAIL_FORMAT,
        sessionIndexes: [person.sessionIndex],
        relayState: 'idp state: a/b+c',
        ...input,
      },
      signing ?? undefined,
      change,
    );

  async function expectAlive(person: SignedIn) {
    expect(sessionIdOf(person.agent)).toBe(person.sessionId);
    await expectSessionsAlive(rp.server, client, [person]);
  }

  /** Asserts the page posts a signed Success LogoutResponse to the request to the provider's ResponseLocation. */
  function expectPostedAnswer(page: Page | undefined, requestId: string, relayState: string | undefined) {
    const posted = expectPostPage(page, postIdp.sloResponse);
    expect(posted.fields).toEqual({
      SAMLResponse: expect.any(String),
      ...(relayState === undefined ? {} : { RelayState: relayState }),
    });
    expect(posted.xml).toMatch(/^<samlp:LogoutResponse /);
    expect(posted.xml).toContain(` InResponseTo="${requestId}"`);
    expect(posted.xml).toContain(` Destination="${postIdp.sloResponse}"`);
    expect(posted.xml).toContain(`<saml:Issuer>${rp.server.url}/runtime/saml2</saml:Issuer>`);
    expect(posted.xml).toContain(`<samlp:StatusCode Value="${SUCCESS}"/>`);
    expect(postSignatureVerifies(posted.xml, serviceCertificate)).toBe(true);
    expect(postSignatureVerifies(posted.xml, signer.pem)).toBe(false);
  }

  it('ends the session its signed LogoutRequest names and posts back a signed Success LogoutResponse', async () => {
    const person = await signedIn();
    const before = events(rp.server, 4111).length;
    const sent = logoutRequest(person);
    const outcome = await person.agent.navigate(sloUrl(rp.server), { form: sent.form });
    expectPostedAnswer(outcome.page, sent.id, 'idp state: a/b+c');
    await expectEnded(rp.server, person.agent, person.sessionId);
    expect(await promptNone(rp.server, client, person.agent)).toBe('login_required');
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
  });

  it('verifies the cross-site post without cookies and ends the session at the GET that follows, which has them', async () => {
    const person = await signedIn();
    const sent = logoutRequest(person, { relayState: undefined });
    const response = await fetch(sloUrl(rp.server), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(sent.form),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const next = response.headers.get('location') ?? '';
    expect(next.startsWith('/runtime/saml2/slo.idp?verified=')).toBe(true);
    expect((await sessionRow(rp.server, person.sessionId)).endedAt).toBeNull();
    expectPostedAnswer((await person.agent.navigate(next)).page, sent.id, undefined);
    await expectEnded(rp.server, person.agent, person.sessionId);
  });

  it('answers by HTTP-Redirect when the provider takes its LogoutResponse by HTTP-Redirect', async () => {
    const person = await signedIn(redirectIdp);
    const sent = logoutRequest(person, { issuer: redirectIdp.entityId });
    const left = (await person.agent.navigate(sloUrl(rp.server), { form: sent.form })).left!;
    expect(`${left.origin}${left.pathname}`).toBe(redirectIdp.slo);
    expect(left.searchParams.get('RelayState')).toBe('idp state: a/b+c');
    expect(redirectSignatureVerifies(left, serviceCertificate)).toBe(true);
    expect(redirectMessage(left, 'SAMLResponse')).toContain(` InResponseTo="${sent.id}"`);
    await expectEnded(rp.server, person.agent, person.sessionId);
  });

  it('answers Success to a valid request for another NameID and leaves the session alive', async () => {
    const person = await signedIn();
    const sent = logoutRequest(person, { nameId: 'someone-else@example.test' });
    expectPostedAnswer(
      (await person.agent.navigate(sloUrl(rp.server), { form: sent.form })).page,
      sent.id,
      'idp state: a/b+c',
    );
    await expectAlive(person);
  });

  const wrongDestination = 'http://127.0.0.1:9/elsewhere/slo';
  for (const [what, make, description, connection] of [
    ['unsigned', (p) => logoutRequest(p, {}, null), 'the LogoutRequest is not signed'],
    [
      'signed by another key',
      async (p) => logoutRequest(p, {}, { signer: await uploadedSigner(rp.server) }),
      'the LogoutRequest does not verify: the signature value is incorrect',
    ],
    [
      'signed with RSA-SHA1',
      (p) => logoutRequest(p, {}, { signer, signatureAlgorithm: 'sha1' }),
      `the LogoutRequest is signed with ${RSA_SHA1}`,
    ],
    [
      'whose signature digests with SHA-1',
      (p) => logoutRequest(p, {}, { signer, digestAlgorithm: 'sha1' }),
      "the LogoutRequest does not verify: the signature's digest is http://www.w3.org/2000/09/xmldsig#sha1",
    ],
    [
      'past its NotOnOrAfter',
      (p) => logoutRequest(p, { notOnOrAfter: new Date(Date.now() - 10 * 60_000) }),
      'the LogoutRequest does not verify: SAML assertion expired: clocks skewed too much',
    ],
    [
      'addressed elsewhere',
      (p) => logoutRequest(p, { destination: wrongDestination }),
      `the LogoutRequest is addressed to ${wrongDestination}, not to this service`,
    ],
    [
      'with a document type declaration',
      (p) => logoutRequest(p, {}, { signer }, (xml) => `<!DOCTYPE LogoutRequest [<!ENTITY e "x">]>${xml}`),
      'the SAMLRequest cannot be read: the XML has a document type declaration',
      '',
    ],
    [
      'altered after signing',
      (p) =>
        logoutRequest(p, { nameId: 'someone-else@example.test' }, { signer }, (xml) =>
          xml.replace('someone-else@example.test', p.nameId),
        ),
      'the LogoutRequest does not verify: a reference does not match its digest',
    ],
    [
      "wrapping another person's signed request",
      (p) => {
        const root = `<samlp:LogoutRequest ${NS} ID="_wrapper" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${postIdp.entityId}</saml:Issuer><samlp:Extensions/><saml:NameID Format="${EMAIL_FORMAT}">${p.nameId}</saml:NameID></samlp:LogoutRequest>`;
        return logoutRequest(p, { nameId: 'someone-else@example.test', sessionIndexes: [] }, { signer }, wrapped(root));
      },
      'the LogoutRequest does not verify: the signature does not cover the message (and it alone)',
    ],
  ] as [
    string,
    (p: SignedIn) => { form: Record<string, string> } | Promise<{ form: Record<string, string> }>,
    string,
    string?,
  ][]) {
    it(`refuses a posted LogoutRequest ${what} with a 400 page and event 4111, the session kept`, async () => {
      const person = await signedIn();
      const before = events(rp.server, 4111).length;
      const page = (await person.agent.navigate(sloUrl(rp.server), { form: (await make(person)).form })).page!;
      expect(page.status).toBe(400);
      expect(page.html).toContain(NOT_VERIFIED);
      expect(events(rp.server, 4111).slice(before)).toEqual([
        expect.objectContaining({
          eventId: 4111,
          error: 'invalid_request',
          description,
          connection: connection ?? postIdp.name,
        }),
      ]);
      await expectAlive(person);
    });
  }
});
