import { beforeAll, describe, expect, it } from 'vitest';
import type { SamlSigner } from '../../test-support/saml-identity-provider.js';
import {
  EMAIL_CLAIM,
  EMAIL_FORMAT,
  makeWsFedSigner,
  testRelyingParty,
  testTokenServiceId,
  type WsFedTokenInput,
  wsfedAssertion,
  wsfedEncrypt,
  wsfedEncryptedResult,
  wsfedResult,
  wsfedWrap,
} from '../../test-support/wsfed-identity-provider.js';
import { UpstreamError } from './provider.js';
import { verifyWsFedResult } from './wsfed-encrypted-token.js';

const rp = testRelyingParty;
const entityId = testTokenServiceId;
/** The security token service's signing key, this service's credential, and a stranger's key. */
let signer: SamlSigner;
let service: SamlSigner;
let other: SamlSigner;
/** How often the reader asked for this service's key. */
let keyAsked = 0;

beforeAll(async () => {
  [signer, service, other] = await Promise.all([makeWsFedSigner(), makeWsFedSigner(), makeWsFedSigner()]);
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
const encryptedFor = (token: WsFedTokenInput, certificatePem?: string) =>
  wsfedEncryptedResult(token, { certificatePem: certificatePem ?? service.pem });
const verify = (wresult: string) =>
  verifyWsFedResult({ entityId, certificates: [signer.pem] }, rp, wresult, async () => {
    keyAsked += 1;
    return service.privateKeyPem;
  });

/** The description of the UpstreamError verification ends with (all are invalid_response). */
async function refusal(wresult: string): Promise<string> {
  const error = await verify(wresult).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`not refused: ${String(error)}`);
  expect(error.error).toBe('invalid_response');
  return error.description;
}

describe('verifyWsFedResult: tokens accepted', () => {
  it('a SAML 2.0 assertion in an EncryptedAssertion: the same identity as in the clear', async () => {
    const identity = await verify(await encryptedFor(input({ assertionId: '_e1' })));
    expect(identity).toEqual({
      nameId: 'ann@example.test',
      nameIdFormat: EMAIL_FORMAT,
      email: 'ann@example.test',
      acr: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
      assertionId: '_e1',
      notOnOrAfter: expect.any(Date),
    });
  });

  it('a SAML 1.1 assertion in an EncryptedData, in a WS-Trust 1.3 collection (AD FS)', async () => {
    const token = input({
      format: 'saml11',
      nameId: 'EXAMPLE\\ann',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      attributes: { [EMAIL_CLAIM]: 'ann@example.test' },
      assertionId: '_e2',
    });
    const wresult = await wsfedEncryptedResult(token, { certificatePem: service.pem }, { collection: true });
    expect(wresult).not.toContain('Assertion');
    expect(await verify(wresult)).toMatchObject({
      nameId: 'EXAMPLE\\ann',
      email: 'ann@example.test',
      assertionId: '_e2',
    });
  });

  it('a SAML 2.0 assertion in an EncryptedData alone, AES-128-GCM', async () => {
    const wresult = await wsfedEncryptedResult(input({ assertionId: '_e3' }), {
      certificatePem: service.pem,
      element: 'EncryptedData',
      encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes128-gcm',
    });
    expect(await verify(wresult)).toMatchObject({ assertionId: '_e3', email: 'ann@example.test' });
  });

  it("a token in the clear, without asking for this service's key", async () => {
    const before = keyAsked;
    expect(await verify(wsfedResult(input({ assertionId: '_c1' })))).toMatchObject({ assertionId: '_c1' });
    expect(keyAsked).toBe(before);
  });
});

describe('verifyWsFedResult: encrypted tokens refused', () => {
  it('encrypted for another certificate', async () => {
    expect(await refusal(await encryptedFor(input(), other.pem))).toMatch(
      /^the token does not decrypt with this service's key: error:\w+:rsa routines::(oaep decoding error|data too large for modulus)$/,
    );
  });

  it('the assertion inside unsigned, or signed by another key', async () => {
    const unsigned = wsfedAssertion(input()).replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
    const wresult = wsfedWrap(await wsfedEncrypt(unsigned, { certificatePem: service.pem }), rp);
    expect(await refusal(wresult)).toBe('the assertion does not carry exactly one signature');
    expect(await refusal(await encryptedFor(input({ signer: other })))).toMatch(
      /^the assertion's signature does not verify: invalid signature: the signature value .* is incorrect$/,
    );
  });

  it('a document type declaration inside the encrypted content', async () => {
    const doctype = `<!DOCTYPE a [<!ENTITY x "ann@example.test">]>${wsfedAssertion(input())}`;
    const wresult = wsfedWrap(await wsfedEncrypt(doctype, { certificatePem: service.pem }), rp);
    expect(await refusal(wresult)).toBe('the decrypted token is refused: the XML has a document type declaration');
  });

  it('the checks of a token in the clear hold: another audience, expired', async () => {
    expect(await refusal(await encryptedFor(input({ audience: 'urn:elsewhere' })))).toBe(
      'the assertion is for urn:elsewhere, not for this service',
    );
    const past = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    expect(await refusal(await encryptedFor(input({ notBefore: past(20), notOnOrAfter: past(10) })))).toBe(
      'the assertion has expired (NotOnOrAfter)',
    );
  });

  it('wrapping: an assertion in the clear beside the encrypted token, two assertions or another element inside', async () => {
    const encrypted = await wsfedEncrypt(wsfedAssertion(input()), { certificatePem: service.pem });
    const beside = wsfedWrap(encrypted, { ...rp, extra: `<x:E xmlns:x="urn:x">${wsfedAssertion(input())}</x:E>` });
    expect(await refusal(beside)).toBe('wresult holds an assertion beside the encrypted token');
    const two = `<x:W xmlns:x="urn:x">${wsfedAssertion(input())}${wsfedAssertion(input())}</x:W>`;
    const inTwo = wsfedWrap(await wsfedEncrypt(two, { certificatePem: service.pem }), rp);
    expect(await refusal(inTwo)).toBe('the decrypted token holds 2 assertions, not one');
    const wrapped = `<x:W xmlns:x="urn:x">${wsfedAssertion(input())}</x:W>`;
    const inWrapper = wsfedWrap(await wsfedEncrypt(wrapped, { certificatePem: service.pem }), rp);
    expect(await refusal(inWrapper)).toBe('the requested security token is not a SAML 2.0 or SAML 1.1 assertion');
  });

  it('content that is not XML once decrypted', async () => {
    const wresult = wsfedWrap(await wsfedEncrypt('not xml at all', { certificatePem: service.pem }), rp);
    expect(await refusal(wresult)).toBe('the decrypted token is refused: the XML has no root element');
  });
});
