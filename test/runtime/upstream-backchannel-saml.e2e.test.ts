import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type PostSigning,
  postSignatureVerifies,
  type SamlLogoutRequestInput,
  type SamlSigner,
  samlLogoutRequestSoap,
  soapEnvelope,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import { Agent } from './agent.js';
import { createSaml20Connection, EMAIL_FORMAT, HTTP_REDIRECT, keyDescriptors, uploadedSigner } from './saml-idp.js';
import { type CreatedClient, createClient, events, execSql, rowsOf, runtimeServerPerFile, unique } from './support.js';
import { expectSessionsAlive, expectSessionsEnded, samlSignedIn, sloUrl } from './upstream-logout-support.js';

const rp = runtimeServerPerFile();
/** Two identity providers (never reached: their single logout services only have to exist). */
const idp = { name: '', entityId: 'urn:idsvc-test:saml-soap-slo', id: '' };
const otherIdp = { name: '', entityId: 'urn:idsvc-test:saml-soap-slo-other', id: '' };
/** A provider whose only single logout service is SOAP. */
const soapOnlyIdp = { name: '', entityId: 'urn:idsvc-test:saml-soap-slo-only', id: '' };
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const SOAP_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:SOAP';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
let signer: SamlSigner;
let client: CreatedClient;
let serviceCertificate: string;
let metadata: string;

const soapUrl = () => `${rp.server.url}/runtime/saml2/slo-soap.idp`;

beforeAll(async () => {
  signer = await uploadedSigner(rp.server);
  for (const provider of [idp, otherIdp]) {
    provider.name = unique('SamlSoapSlo');
    provider.id = await createSaml20Connection(rp.server, {
      name: provider.name,
      entityId: provider.entityId,
      signer,
      configuration: { singleLogoutServices: [{ binding: HTTP_REDIRECT, location: 'http://127.0.0.1:7/idp/slo' }] },
    });
  }
  soapOnlyIdp.name = unique('SamlSoapOnly');
  soapOnlyIdp.id = await createSaml20Connection(rp.server, {
    name: soapOnlyIdp.name,
    entityId: soapOnlyIdp.entityId,
    signer,
    configuration: { singleLogoutServices: [{ binding: SOAP_BINDING, location: 'http://127.0.0.1:7/idp/soap' }] },
  });
  client = await createClient(rp.server, {
    configuration: { redirectUris: ['http://127.0.0.1:9/cb'] },
    dependencyConnectionNames: ['UsernamePassword', idp.name, otherIdp.name, soapOnlyIdp.name],
  });
  metadata = (await new Agent(rp.server.url).navigate(`${rp.server.url}/runtime/saml2/metadata.idp`)).page!.html;
  serviceCertificate = keyDescriptors(metadata).signing[0];
});

type Person = Awaited<ReturnType<typeof samlSignedIn>>;

/** Signs a new user in through the provider, or, given a person, that person again in a new browser. */
const signedIn = (provider: { name: string; entityId: string } = idp, again?: Person): Promise<Person> =>
  samlSignedIn(rp.server, client, signer, provider, again?.user);

const expectAlive = (...people: Person[]) => expectSessionsAlive(rp.server, client, people);
const expectEnded = (...people: Person[]) => expectSessionsEnded(rp.server, client, people);

/** The provider's LogoutRequest for the person by SOAP, signed (RSA-SHA256) unless `signing` is null. */
const logoutRequest = (
  person: Person,
  input: Partial<SamlLogoutRequestInput> = {},
  signing: PostSigning | null = { signer },
  change?: (xml: string) => string,
) =>
  samlLogoutRequestSoap(
    { slo: soapUrl(), issuer: idp.entityId, nameId: person.nameId, nameIdFormat: EMAIL_FORMAT, ...input },
    signing ?? undefined,
    change,
  );

/** Posts the SOAP envelope as the identity provider does (server to server). */
async function post(envelope: string, contentType = 'text/xml; charset=utf-8') {
  const response = await fetch(soapUrl(), {
    method: 'POST',
    headers: { 'content-type': contentType, soapaction: 'http://www.oasis-open.org/committees/security' },
    body: envelope,
  });
  const headers = { type: response.headers.get('content-type'), cache: response.headers.get('cache-control') };
  return { status: response.status, headers, body: await response.text() };
}

const soapHeaders = { type: 'text/xml; charset=utf-8', cache: 'no-cache, no-store' };

/** Asserts a 200 SOAP answer holding this service's signed Success LogoutResponse to the request. */
function expectLogoutResponse(answer: Awaited<ReturnType<typeof post>>, requestId: string) {
  expect(answer.status).toBe(200);
  expect(answer.headers).toEqual(soapHeaders);
  const envelope =
    /^<SOAP-ENV:Envelope xmlns:SOAP-ENV="http:\/\/schemas\.xmlsoap\.org\/soap\/envelope\/"><SOAP-ENV:Body>(<samlp:LogoutResponse [\s\S]*<\/samlp:LogoutResponse>)<\/SOAP-ENV:Body><\/SOAP-ENV:Envelope>$/;
  const xml = envelope.exec(answer.body)?.[1] ?? '';
  expect(xml).toContain(` InResponseTo="${requestId}"`);
  expect(xml).not.toContain('Destination=');
  expect(xml).toContain(`<saml:Issuer>${rp.server.url}/runtime/saml2</saml:Issuer>`);
  expect(xml).toContain(`<samlp:StatusCode Value="${SUCCESS}"/>`);
  expect(postSignatureVerifies(xml, serviceCertificate)).toBe(true);
  expect(postSignatureVerifies(xml, signer.pem)).toBe(false);
}

describe('single logout by the SOAP binding from a SAML 2.0 identity provider', () => {
  it('is published in the metadata as a third SingleLogoutService, after HTTP-Redirect and HTTP-POST', () => {
    const services = [...metadata.matchAll(/<SingleLogoutService Binding="([^"]+)" Location="([^"]+)"\/>/g)];
    expect(services.map(([, binding, location]) => [binding, location])).toEqual([
      [HTTP_REDIRECT, sloUrl(rp.server)],
      ['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', sloUrl(rp.server)],
      [SOAP_BINDING, soapUrl()],
    ]);
  });

  it('keeps digests of the NameID and SessionIndex on the session', async () => {
    const person = await signedIn();
    const [row] = rowsOf(
      await execSql(rp.server)`select upstream_subject_key, upstream_session_key from sessions
        where id = ${person.sessionId}`,
    );
    expect(row).toEqual({
      upstream_subject_key: sha256(`${idp.id}\0${person.nameId}`),
      upstream_session_key: sha256(`${idp.id}\0${person.sessionIndex}`),
    });
  });

  it('ends every session of the NameID through the connection and answers a signed Success LogoutResponse', async () => {
    const person = await signedIn();
    const [again, throughOther, someoneElse] = [
      await signedIn(idp, person),
      await signedIn(otherIdp, person),
      await signedIn(),
    ];
    const before = events(rp.server, 4111).length;
    const sent = logoutRequest(person);
    expectLogoutResponse(await post(sent.envelope), sent.id);
    await expectEnded(person, again);
    await expectAlive(throughOther, someoneElse);
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
  });

  it('ends only the sessions of the SessionIndex values the request names', async () => {
    const person = await signedIn();
    const again = await signedIn(idp, person);
    const unknown = logoutRequest(person, { sessionIndexes: ['_no-such-index'] });
    expectLogoutResponse(await post(unknown.envelope), unknown.id);
    await expectAlive(person, again);
    const sent = logoutRequest(person, { sessionIndexes: ['_no-such-index', again.sessionIndex], destination: null });
    expectLogoutResponse(await post(sent.envelope), sent.id);
    await expectEnded(again);
    await expectAlive(person);
  });

  it('ends the session of a provider whose only single logout service is SOAP', async () => {
    const person = await signedIn(soapOnlyIdp);
    const sent = logoutRequest(person, { issuer: soapOnlyIdp.entityId });
    expectLogoutResponse(await post(sent.envelope), sent.id);
    await expectEnded(person);
  });

  it('answers Success to a valid request for a NameID signed in nowhere here', async () => {
    const person = await signedIn();
    const sent = logoutRequest(person, { nameId: 'nobody@example.test' });
    expectLogoutResponse(await post(sent.envelope), sent.id);
    await expectAlive(person);
  });
});

describe('SOAP LogoutRequests refused', () => {
  let person: Person;
  beforeAll(async () => {
    person = await signedIn();
  });
  const NS = 'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';
  /** Another person's signed request, its signature moved into a root that names the person (signature wrapping). */
  const wrapped = (signed: string) => {
    const signature = /<Signature [\s\S]*<\/Signature>/.exec(signed)?.[0] ?? '';
    const root = `<samlp:LogoutRequest ${NS} ID="_wrapper" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${idp.entityId}</saml:Issuer>${signature}<samlp:Extensions>${signed.replace(signature, '')}</samlp:Extensions><saml:NameID Format="${EMAIL_FORMAT}">${person.nameId}</saml:NameID></samlp:LogoutRequest>`;
    return root;
  };
  const elsewhere = 'http://127.0.0.1:9/elsewhere/slo';
  const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
  /** What is wrong, the envelope (and content type), the fault code, the faultstring, the connection logged. */
  const cases: [
    string,
    (p: Person) => Promise<[string, string?]> | [string, string?],
    string,
    string,
    (() => string)?,
  ][] = [
    ['unsigned', (p) => [logoutRequest(p, {}, null).envelope], 'Client', 'the LogoutRequest is not signed'],
    [
      'signed by another key',
      async (p) => [logoutRequest(p, {}, { signer: await uploadedSigner(rp.server) }).envelope],
      'Client',
      'the LogoutRequest does not verify: the signature value is incorrect',
    ],
    [
      'signed with RSA-SHA1',
      (p) => [logoutRequest(p, {}, { signer, signatureAlgorithm: 'sha1' }).envelope],
      'Client',
      `the LogoutRequest is signed with ${RSA_SHA1}`,
    ],
    [
      'whose signature digests with SHA-1',
      (p) => [logoutRequest(p, {}, { signer, digestAlgorithm: 'sha1' }).envelope],
      'Client',
      "the LogoutRequest does not verify: the signature's digest is http://www.w3.org/2000/09/xmldsig#sha1",
    ],
    [
      'past its NotOnOrAfter',
      (p) => [logoutRequest(p, { notOnOrAfter: new Date(Date.now() - 10 * 60_000) }).envelope],
      'Client',
      'the LogoutRequest does not verify: SAML assertion expired: clocks skewed too much',
    ],
    [
      'addressed elsewhere',
      (p) => [logoutRequest(p, { destination: elsewhere }).envelope],
      'Client',
      `the LogoutRequest is addressed to ${elsewhere}, not to this service`,
    ],
    [
      'addressed to the front-channel single logout service',
      (p) => [logoutRequest(p, { destination: sloUrl(rp.server) }).envelope],
      'Client',
      'the LogoutRequest is addressed to {slo}, not to this service',
    ],
    [
      'altered after signing',
      (p) => [
        logoutRequest(p, { nameId: 'someone-else@example.test' }, { signer }, (xml) =>
          xml.replace('someone-else@example.test', p.nameId),
        ).envelope,
      ],
      'Client',
      'the LogoutRequest does not verify: a reference does not match its digest',
    ],
    [
      "wrapping another person's signed request",
      (p) => [logoutRequest(p, { nameId: 'someone-else@example.test' }, { signer }, wrapped).envelope],
      'Client',
      'the LogoutRequest does not verify: the signature does not cover the message (and it alone)',
    ],
    [
      'of an unknown issuer',
      (p) => [logoutRequest(p, { issuer: 'urn:idsvc-test:unknown' }).envelope],
      'Client',
      'the LogoutRequest is issued by urn:idsvc-test:unknown, not by a known provider',
      () => 'urn:idsvc-test:unknown',
    ],
    [
      'with a document type declaration',
      (p) => [`<!DOCTYPE Envelope [<!ENTITY e "x">]>${logoutRequest(p).envelope}`],
      'Client',
      'the SOAP message cannot be read: the XML has a document type declaration',
      () => '',
    ],
    [
      'in a SOAP 1.2 envelope',
      (p) => [
        logoutRequest(p).envelope.replace(
          'http://schemas.xmlsoap.org/soap/envelope/',
          'http://www.w3.org/2003/05/soap-envelope',
        ),
      ],
      'VersionMismatch',
      'the envelope is not of SOAP 1.1',
      () => '',
    ],
    [
      'with a header that must be understood',
      (p) => [
        logoutRequest(p).envelope.replace(
          '<soap:Body>',
          '<soap:Header><x:Session xmlns:x="urn:x" soap:mustUnderstand="1"/></soap:Header><soap:Body>',
        ),
      ],
      'MustUnderstand',
      'the header Session is not understood here',
      () => '',
    ],
    [
      'holding no LogoutRequest',
      () => [soapEnvelope('<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>')],
      'Client',
      'the SOAP Body holds no LogoutRequest',
      () => '',
    ],
    [
      'not sent as text/xml',
      (p) => [logoutRequest(p).envelope, 'application/soap+xml'],
      'Client',
      'the request is not a SOAP 1.1 message (text/xml)',
      () => '',
    ],
  ];
  for (const [what, make, code, described, connection] of cases) {
    it(`answers a SOAP fault to a LogoutRequest ${what}: HTTP 500, event 4111, nothing ended`, async () => {
      const reason = described.replace('{slo}', sloUrl(rp.server));
      const before = events(rp.server, 4111).length;
      const answer = await post(...(await make(person)));
      expect(answer.status).toBe(500);
      expect(answer.headers).toEqual(soapHeaders);
      expect(answer.body).toBe(
        soapFault(
          code,
          reason.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
        ),
      );
      expect(events(rp.server, 4111).slice(before)).toEqual([
        expect.objectContaining({
          eventId: 4111,
          error: 'invalid_request',
          description: reason,
          connection: connection?.() ?? idp.name,
        }),
      ]);
      await expectAlive(person);
    });
  }
});

const soapFault = (code: string, reason: string) =>
  `<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><SOAP-ENV:Fault><faultcode>SOAP-ENV:${code}</faultcode><faultstring>${reason}</faultstring></SOAP-ENV:Fault></SOAP-ENV:Body></SOAP-ENV:Envelope>`;
