import { beforeAll, describe, expect, it } from 'vitest';
import {
  type PostSigning,
  postSignatureVerifies,
  redirectSignatureVerifies,
  type SamlLogoutRequestInput,
  type SamlSigner,
  samlLogoutRequestPost,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import { Agent, type Page } from './agent.js';
import {
  authorizeUrl,
  createSaml20Connection,
  EMAIL_FORMAT,
  HTTP_POST,
  HTTP_REDIRECT,
  keyDescriptors,
  postedMessage,
  uploadedSigner,
} from './saml-idp.js';
import { type CreatedClient, createClient, events, runtimeServerPerFile, unique } from './support.js';
import {
  afterLogout,
  expectEnded,
  idTokenFor,
  type LogoutResponseInput,
  logoutResponsePost,
  logoutUrl,
  redirectMessage,
  SIGNED_OUT,
  samlSignedIn,
  sessionIdOf,
  sessionRow,
  sloUrl,
  UNCONFIRMED,
} from './upstream-logout-support.js';

const rp = runtimeServerPerFile();
/** A provider whose single logout service takes HTTP-POST only, with a ResponseLocation; never reached. */
const postIdp = {
  name: '',
  entityId: 'urn:idsvc-test:saml-post-slo',
  slo: 'http://127.0.0.1:7/idp/slo-post',
  sloResponse: 'http://127.0.0.1:7/idp/slo-post/response',
};
/** A provider whose single logout service takes HTTP-Redirect (its LogoutRequest may come by HTTP-POST all the same). */
const redirectIdp = { name: '', entityId: 'urn:idsvc-test:saml-post-slo-redirect', slo: 'http://127.0.0.1:7/idp2/slo' };
type Provider = { name: string; entityId: string };
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const RESPONDER = 'urn:oasis:names:tc:SAML:2.0:status:Responder';
const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
const NOT_VERIFIED = 'the logout request does not verify';
let signer: SamlSigner;
let client: CreatedClient;
let serviceCertificate: string;

beforeAll(async () => {
  signer = await uploadedSigner(rp.server);
  postIdp.name = unique('SamlPostSlo');
  await createSaml20Connection(rp.server, {
    name: postIdp.name,
    entityId: postIdp.entityId,
    signer,
    configuration: {
      singleLogoutServices: [{ binding: HTTP_POST, location: postIdp.slo, responseLocation: postIdp.sloResponse }],
    },
  });
  redirectIdp.name = unique('SamlPostSloRedirect');
  await createSaml20Connection(rp.server, {
    name: redirectIdp.name,
    entityId: redirectIdp.entityId,
    signer,
    configuration: { singleLogoutServices: [{ binding: HTTP_REDIRECT, location: redirectIdp.slo }] },
  });
  client = await createClient(rp.server, {
    configuration: { redirectUris: ['http://127.0.0.1:9/cb'], postLogoutRedirectUris: [afterLogout] },
    dependencyConnectionNames: ['UsernamePassword', postIdp.name, redirectIdp.name],
  });
  const metadata = (await new Agent(rp.server.url).navigate(`${rp.server.url}/runtime/saml2/metadata.idp`)).page!;
  serviceCertificate = keyDescriptors(metadata.html).signing[0];
});

/** Signs a new user in through the provider; the browser, its ID token here, NameID, SessionIndex and session. */
async function signedIn(provider: Provider = postIdp) {
  const { agent, left, nameId, sessionIndex, sessionId } = await samlSignedIn(rp.server, client, signer, provider);
  return { agent, idToken: await idTokenFor(rp.server, client, left, 's'), nameId, sessionIndex, sessionId };
}

type SignedIn = Awaited<ReturnType<typeof signedIn>>;

/** Asserts the page posts a SAML message to the provider: its headers and form; returns the message. */
function expectPostPage(page: Page | undefined, action: string) {
  expect(page?.status).toBe(200);
  expect(page!.headers.get('cache-control')).toBe('no-store');
  expect(page!.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:7;");
  const posted = postedMessage(page!);
  expect(posted.action).toBe(action);
  return posted;
}

/**
 * Wraps a validly signed message in another root element (signature wrapping): the root claims what `root` says and
 * carries the signature, which still references the original message, now inside the root's Extensions.
 */
function wrapped(root: string) {
  return (signed: string) => {
    const signature = /<Signature [\s\S]*<\/Signature>/.exec(signed)?.[0] ?? '';
    const inner = signed.replace(signature, '');
    return root.replace('<samlp:Extensions/>', `${signature}<samlp:Extensions>${inner}</samlp:Extensions>`);
  };
}

const NS = 'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';

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
      expect(back.status).toBe(200);
      expect(back.html).toContain(SIGNED_OUT);
      expect(back.html).toContain(UNCONFIRMED);
      const expected = description.endsWith(' ') ? `${description}${sent.id}` : description;
      expect(events(rp.server, 4111).slice(before)).toEqual([
        expect.objectContaining({
          eventId: 4111,
          error: 'invalid_response',
          description: expected,
          connection: postIdp.name,
        }),
      ]);
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

  /** What an authorization request with prompt=none gets in the browser: a code, or the error. */
  async function promptNone(agent: Agent) {
    const outcome = await agent.navigate(authorizeUrl(rp.server, client, { prompt: 'none', state: 'probe' }));
    return outcome.left?.searchParams.get('error') ?? (outcome.left?.searchParams.has('code') ? 'code' : 'none');
  }

  async function expectAlive(person: SignedIn) {
    expect((await sessionRow(rp.server, person.sessionId)).endedAt).toBeNull();
    expect(sessionIdOf(person.agent)).toBe(person.sessionId);
    expect(await promptNone(person.agent)).toBe('code');
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
    expect(await promptNone(person.agent)).toBe('login_required');
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
