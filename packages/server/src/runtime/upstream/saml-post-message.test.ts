import { beforeAll, describe, expect, it } from 'vitest';
import { SignedXml } from 'xml-crypto';
import { makeSamlSigner, type SamlSigner, signPostMessage } from '../../test-support/saml-identity-provider.js';
import { makeCredential, type SamlCredential } from './saml-credential.js';
import {
  type PostMessage,
  readPostMessage,
  signEnveloped,
  signedFields,
  verifyPostSignature,
} from './saml-post-message.js';

const NS = 'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const response = (id: string, inResponseTo: string) =>
  `<samlp:LogoutResponse ${NS} ID="${id}" Version="2.0" IssueInstant="2030-01-01T00:00:00Z" InResponseTo="${inResponseTo}"><saml:Issuer>urn:idp</saml:Issuer><samlp:Status><samlp:StatusCode Value="${SUCCESS}"/></samlp:Status></samlp:LogoutResponse>`;
const posted = (xml: string, more: Record<string, string> = {}) =>
  new URLSearchParams({ SAMLResponse: Buffer.from(xml).toString('base64'), ...more });
type Fields = { '@InResponseTo'?: string; '@ID'?: string };

function read(xml: string): PostMessage<Fields> {
  const message = readPostMessage<Fields>(posted(xml, { RelayState: 'r1' }), 'SAMLResponse', 'LogoutResponse');
  if (typeof message === 'string') throw new Error(message);
  return message;
}

let signer: SamlSigner;
let other: SamlSigner;
let credential: SamlCredential;

beforeAll(async () => {
  [signer, other, credential] = await Promise.all([makeSamlSigner(), makeSamlSigner(), makeCredential('sp.example')]);
});

describe('readPostMessage', () => {
  it('reads the posted message: its XML, root, plain fields, RelayState and signature algorithm', () => {
    const message = read(signPostMessage(response('_r1', '_q1'), 'LogoutResponse', { signer }));
    expect(message.root.localName).toBe('LogoutResponse');
    expect(message.xml['@InResponseTo']).toBe('_q1');
    expect(message.relayState).toBe('r1');
    expect(message.sigAlg).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(read(response('_r1', '_q1')).signature).toBeUndefined();
  });

  it('says why it cannot read a message', () => {
    const field = (form: URLSearchParams) => readPostMessage(form, 'SAMLResponse', 'LogoutResponse');
    const twice = posted(response('_r1', '_q1'));
    twice.append('SAMLResponse', 'again');
    expect(field(twice)).toBe('a parameter of the LogoutResponse comes more than once');
    expect(field(new URLSearchParams({ RelayState: 'r' }))).toBe('the message holds no SAMLResponse');
    expect(field(posted(`<!DOCTYPE x [<!ENTITY e "x">]>${response('_r1', '_q1')}`))).toBe(
      'the SAMLResponse cannot be read: the XML has a document type declaration',
    );
    expect(field(posted(response('_r1', '_q1').replace('urn:oasis:names:tc:SAML:2.0:protocol', 'urn:other')))).toBe(
      'the SAMLResponse is not a LogoutResponse',
    );
    expect(field(posted('<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>'))).toBe(
      'the SAMLResponse is not a LogoutResponse',
    );
    const signed = signPostMessage(response('_r1', '_q1'), 'LogoutResponse', { signer });
    const signature = /<Signature [\s\S]*<\/Signature>/.exec(signed)?.[0] ?? '';
    expect(field(posted(signed.replace(signature, `${signature}${signature}`)))).toBe(
      'the LogoutResponse carries more than one signature',
    );
  });
});

describe('verifyPostSignature', () => {
  it('returns the message as its enveloped signature covers it, verified with one of the certificates', () => {
    const message = read(signPostMessage(response('_r1', '_q1'), 'LogoutResponse', { signer }));
    const signed = verifyPostSignature(message, [other.pem, signer.pem]);
    expect(signed).not.toContain('Signature');
    expect(signedFields<Fields>(signed, 'LogoutResponse')).toMatchObject({ '@ID': '_r1', '@InResponseTo': '_q1' });
  });

  it("never trusts the message's own KeyInfo certificate", () => {
    const message = read(signPostMessage(response('_r1', '_q1'), 'LogoutResponse', { signer: other }));
    expect(message.document).toContain('<X509Certificate>');
    expect(() => verifyPostSignature(message, [signer.pem])).toThrow('the signature value is incorrect');
  });

  it('refuses an unsigned message, SHA-1, and a message altered after signing', () => {
    expect(() => verifyPostSignature(read(response('_r1', '_q1')), [signer.pem])).toThrow('the message is not signed');
    const sha1 = signPostMessage(response('_r1', '_q1'), 'LogoutResponse', { signer, signatureAlgorithm: 'sha1' });
    expect(() => verifyPostSignature(read(sha1), [signer.pem])).toThrow(
      'the message is signed with http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    );
    const digest = signPostMessage(response('_r1', '_q1'), 'LogoutResponse', { signer, digestAlgorithm: 'sha1' });
    expect(() => verifyPostSignature(read(digest), [signer.pem])).toThrow("the signature's digest is");
    const altered = signPostMessage(response('_r1', '_q1'), 'LogoutResponse', { signer }).replace('_q1', '_q2');
    expect(() => verifyPostSignature(read(altered), [signer.pem])).toThrow('a reference does not match its digest');
  });

  it('refuses a signature that covers another element than the root (signature wrapping)', () => {
    const original = signPostMessage(response('_r1', '_other'), 'LogoutResponse', { signer });
    const signature = /<Signature [\s\S]*<\/Signature>/.exec(original)?.[0] ?? '';
    const wrapped = response('_evil', '_q1').replace(
      '</saml:Issuer>',
      `</saml:Issuer>${signature}<samlp:Extensions>${original.replace(signature, '')}</samlp:Extensions>`,
    );
    // xml-crypto alone finds the signature of the wrapped original valid …
    const plain = new SignedXml({ publicCert: signer.pem, getCertFromKeyInfo: () => null });
    plain.loadSignature(signature);
    expect(plain.checkSignature(wrapped)).toBe(true);
    // … but it does not cover the message.
    expect(() => verifyPostSignature(read(wrapped), [signer.pem])).toThrow(
      'the signature does not cover the message (and it alone)',
    );
  });

  it('refuses a document in which another element has the ID of the signed root', () => {
    const signed = signPostMessage(response('_r1', '_q1'), 'LogoutResponse', { signer });
    const twin = signed.replace('</samlp:Status>', '</samlp:Status><samlp:Extensions><x ID="_r1"/></samlp:Extensions>');
    expect(() => verifyPostSignature(read(twin), [signer.pem])).toThrow(/same value for the ID/);
  });
});

describe('signEnveloped', () => {
  it("signs the root element after its Issuer with the service's credential (RSA-SHA256, SHA-256)", () => {
    const signed = signEnveloped(response('_r1', '_q1'), 'LogoutResponse', credential);
    expect(signed).toMatch(/<\/saml:Issuer><Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">/);
    expect(signed).toContain('<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>');
    expect(signed).toContain('<DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>');
    expect(signed).toContain('<Reference URI="#_r1">');
    expect(verifyPostSignature(read(signed), [credential.certificatePem])).toContain('InResponseTo="_q1"');
    expect(() => verifyPostSignature(read(signed), [signer.pem])).toThrow('the signature value is incorrect');
  });
});
