import { beforeAll, describe, expect, it } from 'vitest';
import {
  attributeOf,
  childElements,
  descendants,
  ns,
  parseUntrustedXml,
  textOf,
} from '../../packages/server/dist/runtime/upstream/wsfed-xml.js';
import {
  makeWsFedSigner,
  wsfedAssertion,
  wsfedEncrypt,
  wsfedWrap,
} from '../../packages/server/src/test-support/wsfed-identity-provider.js';
import { Agent } from './agent.js';
import { keyDescriptors } from './saml-idp.js';
import { createUser, events, expectInvalidUpstreamAnswer } from './support.js';
import { EMAIL_FORMAT, redirectUri, stsEntityId, wsfedRelyingParty } from './wsfed-sts.js';

const sts = wsfedRelyingParty();
const { rp, the } = sts;
const EMAIL_CLAIM = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';
const metadataPath = '/runtime/wsfed/FederationMetadata/2007-06/FederationMetadata.xml';
/** This service's certificate, as its WS-Federation metadata publishes it (PEM). */
let certificatePem: string;

async function fetched(path: string): Promise<{ response: Response; body: string }> {
  const response = await fetch(`${rp.server.url}${path}`);
  return { response, body: await response.text() };
}

/** The certificate of the metadata's encryption key, as PEM; the document must name exactly one key. */
function encryptionCertificate(body: string): string {
  const keys = keyDescriptors(body);
  expect(Object.keys(keys)).toEqual(['encryption']);
  expect(keys.encryption).toHaveLength(1);
  return keys.encryption[0];
}

beforeAll(async () => {
  certificatePem = encryptionCertificate((await fetched(metadataPath)).body);
});

describe('WS-Federation relying party metadata', () => {
  it('states the realm, the reply address and the key of the SAML metadata, as SAML metadata, not signed', async () => {
    const { response, body } = await fetched(metadataPath);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/samlmetadata+xml; charset=utf-8');
    const saml = await fetched('/runtime/saml2/metadata.idp');
    expect(response.headers.get('cache-control')).toBe(saml.response.headers.get('cache-control'));
    expect(encryptionCertificate(body)).toBe(keyDescriptors(saml.body).encryption[0]);

    const entity = parseUntrustedXml(body).documentElement;
    expect([entity.namespaceURI, entity.localName]).toEqual([ns.md, 'EntityDescriptor']);
    expect(attributeOf(entity, 'entityID')).toBe(`${rp.server.url}/runtime/wsfed`);
    expect(childElements(entity, ns.dsig, 'Signature')).toEqual([]);
    const roles = childElements(entity, ns.md, 'RoleDescriptor');
    expect(roles).toHaveLength(1);
    expect(childElements(entity, ns.md, 'SPSSODescriptor')).toEqual([]);
    const [role] = roles;
    expect(role.getAttributeNS(ns.xsi, 'type')).toBe('fed:ApplicationServiceType');
    expect(role.lookupNamespaceURI('fed')).toBe('http://docs.oasis-open.org/wsfed/federation/200706');
    expect(attributeOf(role, 'protocolSupportEnumeration')).toBe('http://docs.oasis-open.org/wsfed/federation/200706');
    /** The addresses of the endpoint references a WS-Federation element of the role holds. */
    const addresses = (name: string) =>
      descendants(role, ns.fed, [name])
        .flatMap((e) => childElements(e, ns.wsa, 'EndpointReference'))
        .map((reference) => textOf(childElements(reference, ns.wsa, 'Address')[0]));
    expect(addresses('TargetScopes')).toEqual([`${rp.server.url}/runtime/wsfed`]);
    expect(addresses('PassiveRequestorEndpoint')).toEqual([`${rp.server.url}/runtime/wsfed/reply.idp`]);
    expect(sts.realm()).toBe(`${rp.server.url}/runtime/wsfed`);
    expect(sts.replyUrl()).toBe(`${rp.server.url}/runtime/wsfed/reply.idp`);
    // The same document on every fetch.
    expect((await fetched(metadataPath)).body).toBe(body);
  });
});

describe('upstream WS-Federation sign-in with a token encrypted for this service', () => {
  it('a signed SAML 2.0 assertion in an EncryptedAssertion: the user matched by its e-mail NameID is signed in', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await sts.startSignIn(agent, { state: 'e2', scope: 'openid email' });
    const wresult = await sts.encryptedToken({ nameId: String(user.email) }, { certificatePem });
    expect(wresult).toMatch(/<t:RequestedSecurityToken><saml:EncryptedAssertion [^>]*>\s*<xenc:EncryptedData /);
    expect(wresult).not.toContain('Assertion ID=');
    const outcome = await sts.post(agent, sent, wresult);
    expect(`${outcome.left?.origin}${outcome.left?.pathname}`).toBe(redirectUri);
    expect(outcome.left?.searchParams.get('state')).toBe('e2');
    expect(outcome.left?.searchParams.get('code')).toEqual(expect.any(String));
    expect(await sts.idTokenClaims(outcome.left!, 'e2')).toMatchObject({
      sub: user.id,
      email: user.email,
      amr: ['fed'],
    });
    expect(await sts.hasSession(agent)).toBe(true);
  });

  it('a signed SAML 1.1 assertion in an EncryptedData, in a WS-Trust 1.3 collection (AD FS): signed in', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await sts.startSignIn(agent, { state: 'e1', scope: 'openid email' });
    const token = {
      format: 'saml11' as const,
      nameId: 'EXAMPLE\\someone',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      attributes: { [EMAIL_CLAIM]: String(user.email) },
    };
    const wresult = await sts.encryptedToken(token, { certificatePem }, true);
    expect(wresult).toMatch(/<t:RequestedSecurityToken>\s*<xenc:EncryptedData /);
    const outcome = await sts.post(agent, sent, wresult);
    expect(outcome.left?.searchParams.get('state')).toBe('e1');
    expect(await sts.idTokenClaims(outcome.left!, 'e1')).toMatchObject({
      sub: user.id,
      email: user.email,
      amr: ['fed'],
    });
    expect(await sts.hasSession(agent)).toBe(true);
  });
});

describe('upstream WS-Federation sign-in: encrypted tokens that are refused', () => {
  let email: string;
  beforeAll(async () => {
    email = String((await createUser(rp.server)).email);
  });

  /** The signed assertion of the service for the user, and the wresult of its XML encrypted for `certificate`. */
  const assertion = () =>
    wsfedAssertion({
      format: 'saml2',
      issuer: stsEntityId,
      audience: sts.realm(),
      nameId: email,
      nameIdFormat: EMAIL_FORMAT,
      signer: the.signer,
    });
  const encrypted = async (xml: string, certificate = certificatePem) =>
    wsfedWrap(await wsfedEncrypt(xml, { certificatePem: certificate, element: 'EncryptedAssertion' }), {
      realm: sts.realm(),
    });

  /** Posts the wresult to a fresh sign-in: access_denied, one 4111 record with the description, and no session. */
  async function deniedWith4111(wresult: string, description: string | RegExp, agent = new Agent(rp.server.url)) {
    const before = events(rp.server, 4111).length;
    const outcome = await sts.post(agent, await sts.startSignIn(agent, { state: 'no' }), wresult);
    const logged = events(rp.server, 4111).slice(before);
    expectInvalidUpstreamAnswer(rp.server, { left: outcome.left, logged, connection: the.name }, description);
    expect(agent.cookies.has('idsvc_session')).toBe(false);
    expect(await sts.hasSession(agent)).toBe(false);
  }

  it('encrypted for another certificate', async () => {
    const other = await makeWsFedSigner();
    await deniedWith4111(
      await encrypted(assertion(), other.pem),
      /^the token does not decrypt with this service's key: error:\w+:rsa routines::(oaep decoding error|data too large for modulus)$/,
    );
  });

  it('encrypted for this service, the assertion inside unsigned', async () => {
    const unsigned = assertion().replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
    await deniedWith4111(await encrypted(unsigned), 'the assertion does not carry exactly one signature');
  });

  it('encrypted for this service, the assertion inside signed by another key', async () => {
    const other = await makeWsFedSigner();
    await deniedWith4111(
      await sts.encryptedToken({ nameId: email, signer: other }, { certificatePem }),
      /^the assertion's signature does not verify: invalid signature: the signature value .+ is incorrect$/,
    );
  });

  it('a document type declaration inside the encrypted content', async () => {
    const doctype = `<!DOCTYPE saml:Assertion [<!ENTITY who "${email}">]>${assertion()}`;
    await deniedWith4111(
      await encrypted(doctype),
      'the decrypted token is refused: the XML has a document type declaration',
    );
  });

  it('an encrypted token accepted once is refused the second time (replay)', async () => {
    const wresult = await encrypted(assertion());
    const agent = new Agent(rp.server.url);
    const first = await sts.post(agent, await sts.startSignIn(agent, { state: 'once' }), wresult);
    expect(first.left?.searchParams.has('code')).toBe(true);
    await deniedWith4111(wresult, /^the assertion _[0-9a-f]{32} was accepted before$/);
  });
});
