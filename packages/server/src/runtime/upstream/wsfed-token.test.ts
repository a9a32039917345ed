import { beforeAll, describe, expect, it } from 'vitest';
import { SignedXml } from 'xml-crypto';
import type { SamlSigner } from '../../test-support/saml-identity-provider.js';
import {
  EMAIL_CLAIM,
  EMAIL_FORMAT,
  makeWsFedSigner,
  testRelyingParty,
  testTokenServiceId,
  type WsFedTokenInput,
  wsfedAssertion,
  wsfedResult,
  wsfedWrap,
} from '../../test-support/wsfed-identity-provider.js';
import { UpstreamError } from './provider.js';
import { readWsFedResult } from './wsfed-token.js';

const rp = testRelyingParty;
const entityId = testTokenServiceId;
let signer: SamlSigner;
let other: SamlSigner;

beforeAll(async () => {
  [signer, other] = await Promise.all([makeWsFedSigner(), makeWsFedSigner()]);
});

const input = (more: Partial<WsFedTokenInput> = {}): WsFedTokenInput => ({
  format: 'saml2',
  issuer: entityId,
  audience: rp.realm,
  nameId: 'ann@example.test',
  nameIdFormat: EMAIL_FORMAT,
  signer,
  ...more,
});
const read = (wresult: string, certificates = [signer.pem], now = Date.now()) =>
  readWsFedResult({ entityId, certificates }, rp, wresult, now);

/** The description of the UpstreamError `run` throws (all are invalid_response). */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    expect(error.error).toBe('invalid_response');
    return error.description;
  }
  throw new Error('accepted');
}

describe('readWsFedResult: tokens accepted', () => {
  it('a SAML 2.0 assertion: the e-mail NameID, its class, ID and end of validity', () => {
    const now = new Date('2030-01-01T12:00:00.000Z');
    const identity = read(wsfedResult(input({ assertionId: '_a1' }), {}, now), [signer.pem], now.getTime());
    expect(identity).toEqual({
      nameId: 'ann@example.test',
      nameIdFormat: EMAIL_FORMAT,
      email: 'ann@example.test',
      acr: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
      assertionId: '_a1',
      notOnOrAfter: new Date('2030-01-01T12:05:00.000Z'),
    });
  });

  it('a SAML 1.1 assertion in a WS-Trust 1.3 collection, the e-mail from the emailaddress claim (AD FS)', () => {
    const token = input({
      format: 'saml11',
      nameId: 'EXAMPLE\\ann',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      attributes: { [EMAIL_CLAIM]: 'ann@example.test' },
      assertionId: '_b1',
    });
    expect(read(wsfedResult(token, { collection: true }))).toMatchObject({
      nameId: 'EXAMPLE\\ann',
      email: 'ann@example.test',
      acr: 'urn:oasis:names:tc:SAML:1.0:am:password',
      assertionId: '_b1',
    });
  });

  it('takes `email` and `mail` attributes, never the UPN', () => {
    const upn = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn';
    const opaque = { nameId: 'opaque-1', nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' };
    expect(read(wsfedResult(input({ ...opaque, attributes: { upn: 'ann@corp.test' } }))).email).toBeUndefined();
    expect(read(wsfedResult(input({ ...opaque, attributes: { [upn]: 'ann@corp.test' } }))).email).toBeUndefined();
    expect(read(wsfedResult(input({ ...opaque, attributes: { mail: 'm@example.test' } }))).email).toBe(
      'm@example.test',
    );
    const saml11 = input({ ...opaque, format: 'saml11', attributes: { email: 'e@example.test' } });
    expect(read(wsfedResult(saml11)).email).toBe('e@example.test');
  });

  it('any of the certificates may have signed it (rotation); an expiry within the clock skew is allowed', () => {
    const past = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const token = wsfedResult(input({ notBefore: past(3), notOnOrAfter: past(1) }));
    expect(read(token, [other.pem, signer.pem]).email).toBe('ann@example.test');
  });

  it('reads what the signature covers: a comment slipped into the signed NameID does not cut it short', () => {
    const token = wsfedResult(input({ nameId: 'ann@example.test.evil' })).replace(
      'ann@example.test.evil</saml:NameID>',
      'ann@example.test<!---->.evil</saml:NameID>',
    );
    expect(read(token).email).toBe('ann@example.test.evil');
  });
});

describe('readWsFedResult: tokens refused', () => {
  it('signed with another key, its certificate in KeyInfo: the message cannot bring its own key', () => {
    expect(refusal(() => read(wsfedResult(input({ signer: other }))))).toMatch(
      /^the assertion's signature does not verify: invalid signature: the signature value .* is incorrect$/,
    );
  });

  it('changed after signing', () => {
    const token = wsfedResult(input()).replace('ann@example.test</saml:NameID>', 'eve@example.test</saml:NameID>');
    expect(refusal(() => read(token))).toBe(
      "the assertion's signature does not verify: a reference does not match its digest",
    );
  });

  it('signature wrapping: a second, unsigned assertion beside the signed one', () => {
    const signed = wsfedAssertion(input());
    const forged = wsfedAssertion(input({ nameId: 'eve@example.test' })).replace(
      /<ds:Signature[\s\S]*<\/ds:Signature>/,
      '',
    );
    expect(refusal(() => read(wsfedWrap(`${forged}${signed}`, rp)))).toBe('wresult holds 2 assertions, not one');
    expect(refusal(() => read(wsfedWrap(forged, { ...rp, extra: `<x:Ext xmlns:x="urn:x">${signed}</x:Ext>` })))).toBe(
      'wresult holds 2 assertions, not one',
    );
  });

  it('signature wrapping: the signed assertion moved out of RequestedSecurityToken', () => {
    const signed = wsfedAssertion(input());
    const wresult = wsfedWrap('<x:Nothing xmlns:x="urn:x"/>', { ...rp, extra: signed });
    expect(refusal(() => read(wresult))).toBe('the requested security token is not a SAML 2.0 or SAML 1.1 assertion');
  });

  it("a signature inside the assertion whose reference is another element, not the assertion's ID", () => {
    const unsigned = wsfedAssertion(input()).replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
    const wresult = wsfedWrap(unsigned, rp).replace(
      '<t:RequestSecurityTokenResponse ',
      '<t:RequestSecurityTokenResponse ID="_rstr" ',
    );
    const exclusive = 'http://www.w3.org/2001/10/xml-exc-c14n#';
    const signature = new SignedXml({
      privateKey: signer.privateKeyPem,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: exclusive,
    });
    signature.addReference({
      xpath: "/*[local-name()='RequestSecurityTokenResponse']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', exclusive],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    signature.computeSignature(wresult, {
      prefix: 'ds',
      location: { reference: "//*[local-name()='Assertion']/*[local-name()='Issuer']", action: 'after' },
    });
    const id = /ID="(_[0-9a-f]{32})"/.exec(unsigned)?.[1];
    expect(refusal(() => read(signature.getSignedXml()))).toBe(
      `the signature does not cover the assertion ${id} (and it alone)`,
    );
  });

  it('an unsigned assertion', () => {
    const unsigned = wsfedAssertion(input()).replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
    expect(refusal(() => read(wsfedWrap(unsigned, rp)))).toBe('the assertion does not carry exactly one signature');
  });

  it('for another audience, or for none', () => {
    expect(refusal(() => read(wsfedResult(input({ audience: 'urn:elsewhere' }))))).toBe(
      'the assertion is for urn:elsewhere, not for this service',
    );
    expect(refusal(() => read(wsfedResult(input({ audience: undefined }))))).toBe('the assertion names no audience');
    const saml11 = input({ format: 'saml11', audience: 'urn:elsewhere', attributes: { email: 'a@b.c' } });
    expect(refusal(() => read(wsfedResult(saml11)))).toBe('the assertion is for urn:elsewhere, not for this service');
  });

  it('delivered to another reply address (SAML 2.0 Recipient)', () => {
    expect(refusal(() => read(wsfedResult(input({ recipient: 'https://rp.elsewhere/reply' }))))).toBe(
      'the assertion is to be delivered to https://rp.elsewhere/reply, not to this service',
    );
    expect(read(wsfedResult(input({ recipient: rp.replyUrl }))).email).toBe('ann@example.test');
  });

  it('issued by another service', () => {
    expect(refusal(() => read(wsfedResult(input({ issuer: 'urn:other-sts' }))))).toBe(
      `the assertion was issued by urn:other-sts, not by ${entityId}`,
    );
  });

  it('expired, or not valid yet, beyond the clock skew', () => {
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    expect(refusal(() => read(wsfedResult(input({ notBefore: at(-20), notOnOrAfter: at(-10) }))))).toBe(
      'the assertion has expired (NotOnOrAfter)',
    );
    expect(refusal(() => read(wsfedResult(input({ notBefore: at(10), notOnOrAfter: at(20) }))))).toBe(
      'the assertion is not valid yet (NotBefore)',
    );
  });

  it('an assertion ID longer than 256 characters', () => {
    expect(refusal(() => read(wsfedResult(input({ assertionId: `_${'a'.repeat(256)}` }))))).toBe(
      'the assertion ID is longer than 256 characters',
    );
  });

  it('a document type declaration, an entity, or XML that is not well-formed', () => {
    const token = wsfedResult(input());
    expect(refusal(() => read(`<!DOCTYPE t [<!ENTITY e "ann@example.test">]>${token}`))).toBe(
      'wresult is refused: the XML has a document type declaration',
    );
    expect(refusal(() => read(token.slice(0, -10)))).toMatch(/^wresult is refused: the XML is not well-formed: /);
  });

  it('something other than a RequestSecurityTokenResponse holding one assertion', () => {
    expect(refusal(() => read(wsfedAssertion(input())))).toBe('wresult is not a RequestSecurityTokenResponse');
    const two = wsfedResult(input(), { collection: true }).replace(
      '</t:RequestSecurityTokenResponseCollection>',
      '<t:RequestSecurityTokenResponse/></t:RequestSecurityTokenResponseCollection>',
    );
    expect(refusal(() => read(two))).toBe('wresult does not hold exactly one RequestSecurityTokenResponse');
  });
});
