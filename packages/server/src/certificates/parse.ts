// @peculiar/x509 needs the Reflect metadata polyfill loaded before it; this import runs first.
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { X509Certificate } from '@peculiar/x509';

/** What idsvc keeps of an X.509 certificate. */
export interface ParsedCertificate {
  /** SHA-1 of the DER encoding, upper-case hexadecimal. */
  thumbprint: string;
  subject: string;
  issuer: string;
  /** Upper-case hexadecimal. */
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  /** The DER encoding, exactly as uploaded. */
  der: Uint8Array;
}

/** Input that is not one X.509 certificate in base64 DER or PEM; the message is meant for a person. */
export class CertificateFormatError extends Error {
  override name = 'CertificateFormatError';
}

interface PemBlock {
  label: string;
  body: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
const CERTIFICATE_LABELS = new Set(['CERTIFICATE', 'X509 CERTIFICATE']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The `-----BEGIN X----- … -----END X-----` blocks of a text; text around them is ignored (RFC 7468). */
export function pemBlocks(text: string): PemBlock[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1], body: m[2] }));
}

/** Decodes base64 (whitespace and line breaks allowed; padding optional); throws for anything else. */
export function decodeBase64(text: string, what = 'the certificate'): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') throw new CertificateFormatError(`${what} is empty`);
  const bad = /[^A-Za-z0-9+/=]/.exec(compact);
  if (bad) {
    throw new CertificateFormatError(
      `${what} is not valid base64: unexpected character ${JSON.stringify(bad[0])} at position ${bad.index + 1} ` +
        '(expected base64 of the DER encoding, or PEM text)',
    );
  }
  const padded = compact.includes('=');
  if (!BASE64.test(compact) || (padded ? compact.length % 4 !== 0 : compact.length % 4 === 1)) {
    throw new CertificateFormatError(`${what} is not valid base64: its length or padding is wrong`);
  }
  return Buffer.from(compact, 'base64');
}

/** Reads the outer DER length: header size plus content length, or a message for what is wrong. */
function outerLength(der: Uint8Array): number | string {
  if (der.length < 2) return 'it is too short to be a certificate';
  const first = der[1];
  if (first < 0x80) return 2 + first;
  const count = first & 0x7f;
  if (count === 0) return 'it uses an indefinite length, which DER does not allow';
  if (count > 4 || der.length < 2 + count) return 'its length field is malformed';
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + der[2 + i];
  return 2 + count + length;
}

/** Parses the DER encoding of one X.509 certificate. */
export function parseDer(der: Uint8Array): ParsedCertificate {
  if (der.length === 0) throw new CertificateFormatError('the certificate is empty');
  if (der[0] !== 0x30) {
    throw new CertificateFormatError('the data is not a DER-encoded X.509 certificate (it is not an ASN.1 SEQUENCE)');
  }
  const total = outerLength(der);
  if (typeof total === 'string')
    throw new CertificateFormatError(`the data is not a DER-encoded certificate: ${total}`);
  if (total > der.length) {
    throw new CertificateFormatError(`the certificate is truncated: ${der.length} of ${total} bytes are present`);
  }
  if (total < der.length) {
    throw new CertificateFormatError(
      `there are ${der.length - total} unexpected bytes after the end of the certificate`,
    );
  }
  const bytes = Buffer.from(der);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(bytes);
    return {
      thumbprint: createHash('sha1').update(bytes).digest('hex').toUpperCase(),
      subject: cert.subject,
      issuer: cert.issuer,
      serialNumber: cert.serialNumber.toUpperCase(),
      validFrom: cert.notBefore,
      validTo: cert.notAfter,
      der: bytes,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CertificateFormatError(`the data is not an X.509 certificate (${reason})`);
  }
}

/**
 * Parses one certificate given as base64 of its DER encoding or as PEM text. PEM text must hold exactly one
 * CERTIFICATE block and nothing else (a chain or a private key beside it is refused: each certificate is uploaded
 * on its own, and keys are never taken).
 */
export function parseCertificate(input: string): ParsedCertificate {
  const text = input.trim();
  if (text === '') throw new CertificateFormatError('the certificate is empty');
  if (!text.includes('-----BEGIN')) return parseDer(decodeBase64(text));
  const blocks = pemBlocks(text);
  if (blocks.length === 0) {
    throw new CertificateFormatError('the PEM text has no complete -----BEGIN …----- / -----END …----- block');
  }
  const certs = blocks.filter((b) => CERTIFICATE_LABELS.has(b.label));
  const others = [...new Set(blocks.filter((b) => !CERTIFICATE_LABELS.has(b.label)).map((b) => b.label))];
  if (certs.length === 0) {
    throw new CertificateFormatError(`the PEM text holds ${others.join(', ')}, not a CERTIFICATE`);
  }
  if (others.length > 0) {
    throw new CertificateFormatError(
      `the PEM text holds ${others.join(', ')} besides the certificate; upload the CERTIFICATE block alone`,
    );
  }
  if (certs.length > 1) {
    throw new CertificateFormatError(
      `the PEM text holds ${certs.length} certificates (a chain); upload one certificate per item, ` +
        'for example as the items of POST /certificates/many',
    );
  }
  return parseDer(decodeBase64(certs[0].body, 'the PEM certificate block'));
}

/** Every certificate of a PEM bundle (such as a system trust store) that parses; the others are skipped. */
export function parsePemBundle(text: string): ParsedCertificate[] {
  const out: ParsedCertificate[] = [];
  for (const block of pemBlocks(text)) {
    if (!CERTIFICATE_LABELS.has(block.label)) continue;
    try {
      out.push(parseDer(decodeBase64(block.body)));
    } catch {
      // a damaged entry of a bundle must not hide the others
    }
  }
  return out;
}

/**
 * A thumbprint as stored: upper case, without the `:` or space separators tools print; undefined when the value
 * is not 40 hexadecimal digits.
 */
export function normaliseThumbprint(value: string): string | undefined {
  const compact = value.replace(/[\s:]/g, '').toUpperCase();
  return /^[0-9A-F]{40}$/.test(compact) ? compact : undefined;
}
