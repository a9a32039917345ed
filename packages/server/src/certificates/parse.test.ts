import { beforeAll, describe, expect, it } from 'vitest';
import {
  makeCertificate,
  makeChain,
  makeExpiredCertificate,
  type TestCertificate,
} from '../test-support/certificates.js';
import { CertificateFormatError, normaliseThumbprint, parseCertificate, parseDer, parsePemBundle } from './parse.js';

let cert: TestCertificate;

beforeAll(async () => {
  cert = await makeCertificate({ subject: 'CN=parse test, O=idsvc' });
});

function refusal(input: string): string {
  try {
    parseCertificate(input);
  } catch (error) {
    expect(error).toBeInstanceOf(CertificateFormatError);
    return (error as Error).message;
  }
  throw new Error('the input was accepted');
}

describe('parseCertificate', () => {
  it('reads base64 DER into thumbprint (upper-case SHA-1 of the DER), names, serial, dates and DER', () => {
    const parsed = parseCertificate(cert.base64);
    expect(parsed.thumbprint).toBe(cert.thumbprint);
    expect(parsed.thumbprint).toMatch(/^[0-9A-F]{40}$/);
    expect(parsed.subject).toBe('CN=parse test, O=idsvc');
    expect(parsed.issuer).toBe('CN=parse test, O=idsvc');
    expect(parsed.serialNumber).toMatch(/^01[0-9A-F]{16}$/);
    expect(parsed.validTo.getTime()).toBeGreaterThan(parsed.validFrom.getTime());
    expect(Buffer.from(parsed.der).equals(cert.der)).toBe(true);
  });

  it('reads PEM text, with CRLF line breaks, indentation and explanatory text around the block', () => {
    const messy = `subject=CN=parse test\r\n  ${cert.pem.replace(/\n/g, '\r\n    ')}\r\n\r\n`;
    expect(parseCertificate(messy).thumbprint).toBe(cert.thumbprint);
  });

  it('reads base64 broken into lines, and unpadded base64', () => {
    const lines = cert.base64.replace(/(.{64})/g, '$1\n');
    expect(parseCertificate(lines).thumbprint).toBe(cert.thumbprint);
    expect(parseCertificate(cert.base64.replace(/=+$/, '')).thumbprint).toBe(cert.thumbprint);
  });

  it('accepts an expired certificate and reports its dates', async () => {
    const expired = await makeExpiredCertificate();
    const parsed = parseCertificate(expired.base64);
    expect(parsed.validTo.getTime()).toBeLessThan(Date.now());
  });

  it('reads a certificate issued by a CA: the issuer is the CA subject', async () => {
    const { ca, leaf } = await makeChain();
    const parsed = parseCertificate(leaf.pem);
    expect(parsed.issuer).toBe(ca.subject);
    expect(parsed.subject).toBe(leaf.subject);
  });

  it('refuses a PEM chain of several certificates, naming the count', async () => {
    const { ca, leaf } = await makeChain();
    expect(refusal(`${leaf.pem}\n${ca.pem}`)).toBe(
      'the PEM text holds 2 certificates (a chain); upload one certificate per item, for example as the items of POST /certificates/many',
    );
  });

  it('refuses a PEM private key, and a certificate with a key beside it', () => {
    const key = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----';
    expect(refusal(key)).toBe('the PEM text holds PRIVATE KEY, not a CERTIFICATE');
    expect(refusal(`${cert.pem}\n${key}`)).toBe(
      'the PEM text holds PRIVATE KEY besides the certificate; upload the CERTIFICATE block alone',
    );
  });

  it('refuses PEM without a complete block', () => {
    expect(refusal('-----BEGIN CERTIFICATE-----\nMIIB')).toBe(
      'the PEM text has no complete -----BEGIN …----- / -----END …----- block',
    );
  });

  it('refuses bad base64, naming the character and its position', () => {
    expect(refusal('MIIB%AAA')).toBe(
      'the certificate is not valid base64: unexpected character "%" at position 5 (expected base64 of the DER encoding, or PEM text)',
    );
    expect(refusal('MIIBA=AA')).toBe('the certificate is not valid base64: its length or padding is wrong');
    expect(refusal('   ')).toBe('the certificate is empty');
  });

  it('refuses base64 of bytes that are not a certificate', () => {
    expect(refusal(Buffer.from('hello, not a certificate').toString('base64'))).toBe(
      'the data is not a DER-encoded X.509 certificate (it is not an ASN.1 SEQUENCE)',
    );
    // a well-formed DER SEQUENCE that is not a certificate (two INTEGERs)
    const sequence = Buffer.from([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]);
    expect(refusal(sequence.toString('base64'))).toMatch(/^the data is not an X\.509 certificate \(.+\)$/);
  });

  it('refuses a truncated certificate and one with bytes after its end', () => {
    expect(refusal(cert.der.subarray(0, cert.der.length - 10).toString('base64'))).toBe(
      `the certificate is truncated: ${cert.der.length - 10} of ${cert.der.length} bytes are present`,
    );
    expect(refusal(Buffer.concat([cert.der, Buffer.from([0, 0, 0])]).toString('base64'))).toBe(
      'there are 3 unexpected bytes after the end of the certificate',
    );
  });
});

describe('parseDer', () => {
  it('reads DER bytes', () => {
    expect(parseDer(cert.der).thumbprint).toBe(cert.thumbprint);
  });

  it('refuses empty input', () => {
    expect(() => parseDer(new Uint8Array())).toThrow('the certificate is empty');
  });
});

describe('parsePemBundle', () => {
  it('reads every certificate of a bundle, skipping a damaged entry', async () => {
    const { ca, leaf } = await makeChain();
    const damaged = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
    const thumbprints = parsePemBundle(`${ca.pem}\n${damaged}\n${leaf.pem}`).map((c) => c.thumbprint);
    expect(thumbprints).toEqual([ca.thumbprint, leaf.thumbprint]);
  });
});

describe('normaliseThumbprint', () => {
  it('upper-cases and removes the separators tools print', () => {
    const hex = 'ab'.repeat(20);
    expect(normaliseThumbprint(hex)).toBe('AB'.repeat(20));
    expect(normaliseThumbprint(hex.match(/../g)?.join(':') ?? '')).toBe('AB'.repeat(20));
    expect(normaliseThumbprint(` ${hex.match(/../g)?.join(' ')} `)).toBe('AB'.repeat(20));
  });

  it('answers undefined for anything but 40 hexadecimal digits', () => {
    expect(normaliseThumbprint('AB'.repeat(19))).toBeUndefined();
    expect(normaliseThumbprint(`${'AB'.repeat(19)}XY`)).toBeUndefined();
    expect(normaliseThumbprint('')).toBeUndefined();
  });
});
