import { DOMParser } from '@xmldom/xmldom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SamlSigner } from '../../test-support/saml-identity-provider.js';
import { makeWsFedSigner, type WsFedEncryption, wsfedEncrypt } from '../../test-support/wsfed-identity-provider.js';
import { UpstreamError } from './provider.js';
import { CONTENT_ENCRYPTION_ALGORITHMS, decryptToken, isEncryptedToken } from './wsfed-decrypt.js';

/** This service's credential (a key and its certificate), and someone else's. */
let service: SamlSigner;
let other: SamlSigner;
beforeAll(async () => {
  [service, other] = await Promise.all([makeWsFedSigner(), makeWsFedSigner()]);
});

const CONTENT =
  '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_c1">Ann &amp; é</saml:Assertion>';
const element = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml').documentElement;
const encrypted = async (more: Partial<WsFedEncryption> = {}, content = CONTENT) =>
  element(await wsfedEncrypt(content, { certificatePem: service.pem, ...more }));

/** The description of the UpstreamError decryption ends with (all are invalid_response). */
async function refusal(token: Element, key = service.privateKeyPem): Promise<string> {
  const error = await decryptToken(token, key).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`not refused: ${String(error)}`);
  expect(error.error).toBe('invalid_response');
  return error.description;
}

describe('isEncryptedToken', () => {
  it('is true of a SAML 2.0 EncryptedAssertion and of an xenc:EncryptedData, false of an assertion', async () => {
    expect(isEncryptedToken(await encrypted({ element: 'EncryptedAssertion' }))).toBe(true);
    expect(isEncryptedToken(await encrypted())).toBe(true);
    expect(isEncryptedToken(element(CONTENT))).toBe(false);
    expect(isEncryptedToken(element('<EncryptedData xmlns="urn:other"/>'))).toBe(false);
  });
});

describe('decryptToken: what decrypts', () => {
  it('each content algorithm accepted (AES-GCM, AES-CBC), its key by RSA-OAEP: the XML exactly as encrypted', async () => {
    for (const encryptionAlgorithm of CONTENT_ENCRYPTION_ALGORITHMS) {
      expect(await decryptToken(await encrypted({ encryptionAlgorithm }), service.privateKeyPem)).toBe(CONTENT);
    }
  });

  it('an EncryptedAssertion (SAML 2.0) as well as an EncryptedData alone (AD FS, SAML 1.1)', async () => {
    const token = await encrypted({ element: 'EncryptedAssertion' });
    expect(await decryptToken(token, service.privateKeyPem)).toBe(CONTENT);
  });

  it('an EncryptedData nested in the response, its namespace declared above it', async () => {
    const xml = await wsfedEncrypt(CONTENT, { certificatePem: service.pem });
    const bare = xml.replace(/ xmlns:xenc="[^"]*"/, '');
    const doc = new DOMParser().parseFromString(
      `<t:Token xmlns:t="urn:t" xmlns:xenc="http://www.w3.org/2001/04/xmlenc#">${bare}</t:Token>`,
      'text/xml',
    );
    const token = doc.documentElement.getElementsByTagNameNS('http://www.w3.org/2001/04/xmlenc#', 'EncryptedData')[0];
    expect(await decryptToken(token, service.privateKeyPem)).toBe(CONTENT);
  });
});

describe('decryptToken: what is refused', () => {
  it('a token encrypted for another certificate', async () => {
    expect(await refusal(await encrypted({ certificatePem: other.pem }))).toMatch(
      /^the token does not decrypt with this service's key: error:\w+:rsa routines::(oaep decoding error|data too large for modulus)$/,
    );
  });

  it('key transport RSA PKCS#1 v1.5 and Triple DES content, before any decryption', async () => {
    const rsa15 = await encrypted({ keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-1_5' });
    expect(await refusal(rsa15)).toBe(
      "the token's key transport encryption http://www.w3.org/2001/04/xmlenc#rsa-1_5 is not accepted",
    );
    const des = await encrypted({ encryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#tripledes-cbc' });
    expect(await refusal(des)).toBe(
      "the token's content encryption http://www.w3.org/2001/04/xmlenc#tripledes-cbc is not accepted",
    );
  });

  it('content encrypted with a tampered ciphertext (AES-GCM: its tag no longer matches)', async () => {
    const xml = await wsfedEncrypt(CONTENT, {
      certificatePem: service.pem,
      encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
    });
    const values = [...xml.matchAll(/<xenc:CipherValue>([^<]*)<\/xenc:CipherValue>/g)];
    const content = Buffer.from(values[0][1], 'base64');
    content[20] ^= 1;
    const tampered = xml.replace(values[0][1], content.toString('base64'));
    expect(await refusal(element(tampered))).toMatch(/^the token does not decrypt with this service's key: /);
  });

  it('a second EncryptedKey, a second EncryptedData, an EncryptedData of content, a method missing', async () => {
    const xml = await wsfedEncrypt(CONTENT, { certificatePem: service.pem });
    const key = /<e:EncryptedKey[\s\S]*<\/e:EncryptedKey>/.exec(xml)?.[0] ?? '';
    expect(await refusal(element(xml.replace(key, `${key}${key}`)))).toBe(
      'the encrypted token does not hold exactly one EncryptedKey',
    );
    const twice = `<saml:EncryptedAssertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${xml}${xml}</saml:EncryptedAssertion>`;
    expect(await refusal(element(twice))).toBe('the encrypted token does not hold exactly one EncryptedData');
    const content = xml.replace('xmlenc#Element', 'xmlenc#Content');
    expect(await refusal(element(content))).toBe(
      'the encrypted token is of type http://www.w3.org/2001/04/xmlenc#Content',
    );
    const methodless = xml.replace(/<xenc:EncryptionMethod [^>]*\/>/, '');
    expect(await refusal(element(methodless))).toBe(
      'the encrypted token does not name one encryption method for its data and one for its key',
    );
  });
});
