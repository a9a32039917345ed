import { beforeAll, describe, expect, it } from 'vitest';
import {
  redirectSignatureVerifies,
  type SamlLogoutRequestInput,
  type SamlSigner,
  samlLogoutRequestUrl,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import { Agent } from './agent.js';
import { createSaml20Connection, EMAIL_FORMAT, HTTP_REDIRECT, keyDescriptors, uploadedSigner } from './saml-idp.js';
import { type CreatedClient, createClient, events, runtimeServerPerFile, unique } from './support.js';
import {
  expectEnded,
  expectSessionsAlive,
  promptNone,
  redirectMessage,
  samlSignedIn,
  sessionIdOf,
  sloUrl,
} from './upstream-logout-support.js';

const rp = runtimeServerPerFile();
const idpEntityId = 'urn:idsvc-test:saml-idp-logout';
/** The identity provider's single logout service and the address its LogoutResponses go to: never reached. */
const idpSlo = 'http://127.0.0.1:7/idp/slo';
const idpSloResponse = 'http://127.0.0.1:7/idp/slo/response';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const NOT_VERIFIED = 'the logout request does not verify';
/** Two more connections of other providers: one whose logout service has no ResponseLocation, one without any. */
const locationOnly = {
  name: '',
  entityId: 'urn:idsvc-test:saml-idp-logout-location',
  slo: 'http://127.0.0.1:7/idp2/slo',
};
const withoutSlo = { name: '', entityId: 'urn:idsvc-test:saml-idp-logout-none' };
let signer: SamlSigner;
let samlName: string;
let client: CreatedClient;
let serviceCertificate: string;

beforeAll(async () => {
  signer = await uploadedSigner(rp.server);
  samlName = unique('SamlIdpSlo');
  const singleLogoutServices = [{ binding: HTTP_REDIRECT, location: idpSlo, responseLocation: idpSloResponse }];
  await createSaml20Connection(rp.server, {
    name: samlName,
    entityId: idpEntityId,
    signer,
    configuration: { singleLogoutServices },
  });
  locationOnly.name = unique('SamlIdpSloLocation');
  await createSaml20Connection(rp.server, {
    name: locationOnly.name,
    entityId: locationOnly.entityId,
    signer,
    configuration: { singleLogoutServices: [{ binding: HTTP_REDIRECT, location: locationOnly.slo }] },
  });
  withoutSlo.name = unique('SamlIdpNoSlo');
  await createSaml20Connection(rp.server, { name: withoutSlo.name, entityId: withoutSlo.entityId, signer });
  client = await createClient(rp.server, {
    configuration: { redirectUris: ['http://127.0.0.1:9/cb'] },
    dependencyConnectionNames: ['UsernamePassword', samlName, locationOnly.name, withoutSlo.name],
  });
  const metadata = (await new Agent(rp.server.url).navigate(`${rp.server.url}/runtime/saml2/metadata.idp`)).page!;
  serviceCertificate = keyDescriptors(metadata.html).signing[0];
});

/** Signs a new user in through a connection (the main one unless told); the browser, NameID and SessionIndex. */
async function signedIn(connection = { name: samlName, entityId: idpEntityId }) {
  const { agent, left, nameId, sessionIndex, sessionId } = await samlSignedIn(rp.server, client, signer, connection);
  expect(left.searchParams.has('code')).toBe(true);
  return { agent, nameId, sessionIndex, sessionId };
}

type SignedIn = Awaited<ReturnType<typeof signedIn>>;

/** The identity provider's signed LogoutRequest for the sign-in, with what the test changes. */
const logoutRequest = (person: SignedIn, input: Partial<SamlLogoutRequestInput> = {}) =>
  samlLogoutRequestUrl({
    slo: sloUrl(rp.server),
    issuer: idpEntityId,
    nameId: person.nameId,
    nameIdFormat: EMAIL_FORMAT,
    sessionIndexes: [person.sessionIndex],
    relayState: 'idp state: a/b+c',
    signer,
    ...input,
  });

/** Asserts the session is still live: its row not ended, the cookie kept, prompt=none answered with a code. */
async function expectAlive(person: SignedIn) {
  expect(sessionIdOf(person.agent)).toBe(person.sessionId);
  await expectSessionsAlive(rp.server, client, [person]);
}

/** Asserts the browser was sent to the provider with a signed Success LogoutResponse to the request. */
function expectSuccessAnswer(left: URL | undefined, requestId: string, relayState: string | null) {
  expect(left).toBeDefined();
  const url = left!;
  expect(`${url.origin}${url.pathname}`).toBe(idpSloResponse);
  expect([...url.searchParams.keys()]).toEqual(
    relayState === null
      ? ['SAMLResponse', 'SigAlg', 'Signature']
      : ['SAMLResponse', 'RelayState', 'SigAlg', 'Signature'],
  );
  expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
  expect(url.searchParams.get('RelayState')).toBe(relayState);
  expect(redirectSignatureVerifies(url, serviceCertificate)).toBe(true);
  expect(redirectSignatureVerifies(url, signer.pem)).toBe(false);
  const xml = redirectMessage(url, 'SAMLResponse');
  expect(xml).toMatch(/^<samlp:LogoutResponse /);
  expect(xml).toContain(` InResponseTo="${requestId}"`);
  expect(xml).toContain(` Destination="${idpSloResponse}"`);
  expect(xml).toContain(`<saml:Issuer>${rp.server.url}/runtime/saml2</saml:Issuer>`);
  expect(xml).toContain(`<samlp:StatusCode Value="${SUCCESS}"/>`);
}

describe('single logout started by the SAML 2.0 identity provider (HTTP-Redirect)', () => {
  it('ends the session its signed LogoutRequest names and answers with a signed Success LogoutResponse', async () => {
    const person = await signedIn();
    const before = events(rp.server, 4111).length;
    const sent = logoutRequest(person);
    const outcome = await person.agent.navigate(sent.url);
    expectSuccessAnswer(outcome.left, sent.id, 'idp state: a/b+c');
    await expectEnded(rp.server, person.agent, person.sessionId);
    expect(await promptNone(rp.server, client, person.agent)).toBe('login_required');
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
  });

  it('ends the session for a request without SessionIndex and answers without a RelayState when none came', async () => {
    const person = await signedIn();
    const sent = logoutRequest(person, { sessionIndexes: [], relayState: undefined });
    expectSuccessAnswer((await person.agent.navigate(sent.url)).left, sent.id, null);
    await expectEnded(rp.server, person.agent, person.sessionId);
  });

  it('ends the session when one of several SessionIndex values is its own, and leaves out a RelayState over 80 bytes', async () => {
    const person = await signedIn();
    const sent = logoutRequest(person, { sessionIndexes: ['_other', person.sessionIndex], relayState: 'r'.repeat(81) });
    expectSuccessAnswer((await person.agent.navigate(sent.url)).left, sent.id, null);
    await expectEnded(rp.server, person.agent, person.sessionId);
  });

  for (const [what, change] of [
    ['another NameID', { nameId: 'someone-else@example.test' }],
    ['another SessionIndex', { sessionIndexes: ['_another-session'] }],
  ] as const) {
    it(`answers Success to a valid request for ${what} and leaves the browser's session alive`, async () => {
      const person = await signedIn();
      const before = events(rp.server, 4111).length;
      const sent = logoutRequest(person, change);
      expectSuccessAnswer((await person.agent.navigate(sent.url)).left, sent.id, 'idp state: a/b+c');
      await expectAlive(person);
      expect(events(rp.server, 4111).slice(before)).toEqual([]);
    });
  }

  it('answers Success to a valid request in a browser without a session', async () => {
    const person = await signedIn();
    const sent = logoutRequest(person);
    expectSuccessAnswer((await new Agent(rp.server.url).navigate(sent.url)).left, sent.id, 'idp state: a/b+c');
    await expectAlive(person);
  });

  it('answers at the logout service Location when it names no ResponseLocation', async () => {
    const person = await signedIn(locationOnly);
    const sent = logoutRequest(person, { issuer: locationOnly.entityId });
    const left = (await person.agent.navigate(sent.url)).left!;
    expect(`${left.origin}${left.pathname}`).toBe(locationOnly.slo);
    expect(redirectSignatureVerifies(left, serviceCertificate)).toBe(true);
    expect(redirectMessage(left, 'SAMLResponse')).toContain(` InResponseTo="${sent.id}"`);
    await expectEnded(rp.server, person.agent, person.sessionId);
  });

  it('refuses the LogoutRequest of a provider with no logout service to answer at, the session kept', async () => {
    const person = await signedIn(withoutSlo);
    const before = events(rp.server, 4111).length;
    const page = (await person.agent.navigate(logoutRequest(person, { issuer: withoutSlo.entityId }).url)).page!;
    expect(page.status).toBe(400);
    expect(page.html).toContain(NOT_VERIFIED);
    expect(events(rp.server, 4111).slice(before)).toEqual([
      expect.objectContaining({
        eventId: 4111,
        description: 'the connection has no single logout service to answer at',
        connection: withoutSlo.name,
      }),
    ]);
    await expectAlive(person);
  });

  const unknownIssuer = 'urn:idsvc-test:unknown-idp';
  const wrongDestination = 'http://127.0.0.1:9/elsewhere/slo';
  for (const [what, make, description, connection] of [
    ['unsigned', (p: SignedIn) => logoutRequest(p, { signer: undefined }).url, 'the LogoutRequest is not signed'],
    [
      'signed by another key',
      async (p: SignedIn) => logoutRequest(p, { signer: await uploadedSigner(rp.server) }).url,
      'the LogoutRequest does not verify: Invalid query signature',
    ],
    [
      'with a parameter altered after signing',
      (p: SignedIn) => logoutRequest(p).url.replace('RelayState=idp', 'RelayState=IDP'),
      'the LogoutRequest does not verify: Invalid query signature',
    ],
    [
      'with a parameter given twice',
      (p: SignedIn) => `${logoutRequest(p).url}&RelayState=again`,
      'a parameter of the LogoutRequest comes more than once',
      '',
    ],
    [
      'of an unknown issuer',
      (p: SignedIn) => logoutRequest(p, { issuer: unknownIssuer }).url,
      `the LogoutRequest is issued by ${unknownIssuer}, not by a known provider`,
      unknownIssuer,
    ],
    [
      'past its NotOnOrAfter',
      (p: SignedIn) => logoutRequest(p, { notOnOrAfter: new Date(Date.now() - 10 * 60_000) }).url,
      'the LogoutRequest does not verify: SAML assertion expired: clocks skewed too much',
    ],
    [
      'addressed elsewhere',
      (p: SignedIn) => logoutRequest(p, { destination: wrongDestination }).url,
      `the LogoutRequest is addressed to ${wrongDestination}, not to this service`,
    ],
  ] as const) {
    it(`refuses a LogoutRequest ${what} with a 400 page and event 4111, the session kept`, async () => {
      const person = await signedIn();
      const before = events(rp.server, 4111).length;
      const page = (await person.agent.navigate(await make(person))).page!;
      expect(page.status).toBe(400);
      expect(page.html).toContain(NOT_VERIFIED);
      expect(events(rp.server, 4111).slice(before)).toEqual([
        expect.objectContaining({
          eventId: 4111,
          error: 'invalid_request',
          description,
          connection: connection ?? samlName,
        }),
      ]);
      await expectAlive(person);
    });
  }
});
