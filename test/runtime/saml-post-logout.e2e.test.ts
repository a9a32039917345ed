import { beforeAll, describe, expect, it } from 'vitest';
import {
  type PostSigning,
  postSignatureVerifies,
  type SamlSigner,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import { EMAIL_FORMAT, uploadedSigner } from './saml-idp.js';
import {
  expectPostPage,
  NS,
  postLogoutSignedIn,
  type SignedIn,
  samlPostLogoutSetup,
  wrapped,
} from './saml-post-logout-support.js';
import { events } from './support.js';
import {
  afterLogout,
  expectEnded,
  expectUnconfirmedSignOut,
  type LogoutResponseInput,
  logoutResponsePost,
  logoutUrl,
  SIGNED_OUT,
  sloUrl,
  UNCONFIRMED,
} from './upstream-logout-support.js';

const setup = samlPostLogoutSetup();
const { rp, postIdp } = setup;
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const RESPONDER = 'urn:oasis:names:tc:SAML:2.0:status:Responder';
const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
let signer: SamlSigner;
let serviceCertificate: string;
beforeAll(() => {
  ({ signer, serviceCertificate } = setup);
});
const signedIn = (provider?: { name: string; entityId: string }) => postLogoutSignedIn(setup, provider);

describe('logout at a SAML 2.0 identity provider whose single logout service takes HTTP-POST only', () => {
  const otherRequest = '_0123456789abcdef0123456789abcdef01234567';
  /** The identity provider's LogoutResponse by HTTP-POST to the LogoutRequest posted, signed unless `signing` is null. */
  const answer = (
    sent: { id: string; relayState: string },
    input: Partial<LogoutResponseInput> = {},
    signing: PostSigning | null = { signer },
    change?: (xml: string) => string,
  ) =>
    logoutResponsePost(
      {
        slo: sloUrl(rp.server),
        issuer: postIdp.entityId,
        inResponseTo: sent.id,
        relayState: sent.relayState,
        ...input,
      },
      signing ?? undefined,
      change,
    );

  /** Logs out with the ID token; returns the LogoutRequest the page posts to the provider. */
  async function logoutAtIdp(person: SignedIn, params: Record<string, string> = {}) {
    const outcome = await person.agent.navigate(logoutUrl(rp.server, { id_token_hint: person.idToken, ...params }));
    expect(outcome.page?.url.startsWith(`${sloUrl(rp.server)}?send=`)).toBe(true);
    return expectPostPage(outcome.page, postIdp.slo);
  }

  it('ends the session, posts a signed LogoutRequest for its NameID and SessionIndex, and finishes at the client', async () => {
    const person = await signedIn();
    const sent = await logoutAtIdp(person, { post_logout_redirect_uri: afterLogout, state: 'xyz' });
    expect(Object.keys(sent.fields)).toEqual(['SAMLRequest', 'RelayState']);
    expect(sent.relayState).toMatch(/^[\w-]{24}$/);
    expect(sent.xml).toMatch(/^<samlp:LogoutRequest /);
    expect(sent.id).toMatch(/^_[0-9a-f]{40}$/);
    expect(sent.xml).toContain(`Destination="${postIdp.slo}"`);
    expect(sent.xml).toContain(`<saml:Issuer>${rp.server.url}/runtime/saml2</saml:Issuer>`);
    expect(sent.xml).toContain(`<saml:NameID Format="${EMAIL_FORMAT}">${person.nameId}</saml:NameID>`);
    expect(sent.xml).toContain(`<samlp:SessionIndex>${person.sessionIndex}</samlp:SessionIndex>`);
    expect(postSignatureVerifies(sent.xml, serviceCertificate)).toBe(true);
    expect(postSignatureVerifies(sent.xml, signer.pem)).toBe(false);
    await expectEnded(rp.server, person.agent, person.sessionId);

    const before = events(rp.server, 4111).length;
    const back = await person.agent.navigate(sloUrl(rp.server), { form: answer(sent) });
    expect(back.left?.toString()).toBe(`${afterLogout}?state=xyz`);
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
  });

  it('leads the confirmed logout form to the page that posts the LogoutRequest', async () => {
    const person = await signedIn();
    const confirm = (await person.agent.navigate(logoutUrl(rp.server, {}))).page!;
    const outcome = await person.agent.submit(confirm, {}, { name: 'logout', value: 'yes' });
    const sent = expectPostPage(outcome.page, postIdp.slo);
    expect(postSignatureVerifies(sent.xml, serviceCertificate)).toBe(true);
    await expectEnded(rp.server, person.agent, person.sessionId);
    const back = (await person.agent.navigate(sloUrl(rp.server), { form: answer(sent) })).page!;
    expect(back.status).toBe(200);
    expect(back.html).toContain(SIGNED_OUT);
    expect(back.html).not.toContain(UNCONFIRMED);
  });

  const responder = `the LogoutResponse reports the status ${RESPONDER}`;
  for (const [what, make, description] of [
    ['unsigned', (s) => answer(s, {}, null), 'the LogoutResponse is not signed'],
    [
      'signed by another key',
      async (s) => answer(s, {}, { signer: await uploadedSigner(rp.server) }),
      'the LogoutResponse does not verify: the signature value is incorrect',
    ],
    [
      'signed with RSA-SHA1',
      (s) => answer(s, {}, { signer, signatureAlgorithm: 'sha1' }),
      `the LogoutResponse is signed with ${RSA_SHA1}`,
    ],
    [
      'altered after signing',
      (s) => answer(s, { status: RESPONDER }, { signer }, (xml) => xml.replace(RESPONDER, SUCCESS)),
      'the LogoutResponse does not verify: a reference does not match its digest',
    ],
    [
      'wrapping the signed answer to another request',
      (s) => {
        const root = `<samlp:LogoutResponse ${NS} ID="_wrapper" Version="2.0" IssueInstant="${new Date().toISOString()}" InResponseTo="${s.id}"><saml:Issuer>${postIdp.entityId}</saml:Issuer><samlp:Extensions/><samlp:Status><samlp:StatusCode Value="${SUCCESS}"/></samlp:Status></samlp:LogoutResponse>`;
        return answer(s, { inResponseTo: otherRequest }, { signer }, wrapped(root));
      },
      'the LogoutResponse does not verify: the signature does not cover the message (and it alone)',
    ],
    [
      'with a document type declaration',
      (s) => answer(s, {}, { signer }, (xml) => `<!DOCTYPE LogoutResponse [<!ENTITY e "x">]>${xml}`),
      'the SAMLResponse cannot be read: the XML has a document type declaration',
    ],
    [
      'answering another request',
      (s) => answer(s, { inResponseTo: otherRequest }),
      'the LogoutResponse does not answer the request ',
    ],
    ['reporting a failure', (s) => answer(s, { status: RESPONDER }), responder],
    [
      'issued by another provider',
      (s) => answer(s, { issuer: 'urn:idsvc-test:elsewhere' }),
      `the LogoutResponse is issued by urn:idsvc-test:elsewhere, not by ${postIdp.entityId}`,
    ],
  ] as [
    string,
    (s: { id: string; relayState: string }) => Record<string, string> | Promise<Record<string, string>>,
    string,
  ][]) {
    it(`logs event 4111 for a posted LogoutResponse ${what} and says the sign-out there is unconfirmed`, async () => {
      const person = await signedIn();
      const sent = await logoutAtIdp(person);
      const before = events(rp.server, 4111).length;
      const back = (await person.agent.navigate(sloUrl(rp.server), { form: await make(sent) })).page!;
      const expected = { connection: postIdp.name, description, requestId: sent.id };
      expectUnconfirmedSignOut(back, events(rp.server, 4111).slice(before), expected);
      await expectEnded(rp.server, person.agent, person.sessionId);
    });
  }

  it('answers 400 to a posted LogoutResponse with an unknown RelayState, and to an unknown page to send', async () => {
    const person = await signedIn();
    const sent = await logoutAtIdp(person);
    const unknown = { ...sent, relayState: 'AAAAAAAAAAAAAAAAAAAAAAAA' };
    const page = (await person.agent.navigate(sloUrl(rp.server), { form: answer(unknown) })).page!;
    expect(page.status).toBe(400);
    expect(page.html).toContain('the sign-out has expired or was not started here');
    const send = (await person.agent.navigate(`${sloUrl(rp.server)}?send=AAAAAAAAAAAAAAAAAAAAAAAA`)).page!;
    expect(send.status).toBe(400);
    expect(send.html).toContain('the sign-out has expired or was not started here');
  });
});
