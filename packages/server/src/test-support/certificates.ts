// @peculiar/x509 needs the Reflect metadata polyfill loaded before it; this import runs first.
import 'reflect-metadata';
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

/** A certificate made for a test, in every form the API takes. */
export interface TestCertificate {
  der: Buffer;
  /** Base64 of the DER (the upload form). */
  base64: string;
  pem: string;
  /** SHA-1 of the DER, upper-case hex. */
  thumbprint: string;
  subject: string;
  keys: webcrypto.CryptoKeyPair;
}

export interface TestCertificateOptions {
  /** Distinguished name; default `CN=idsvc test <random>`. */
  subject?: string;
  /** Signs the certificate; default: self-signed. */
  issuer?: TestCertificate;
  notBefore?: Date;
  notAfter?: Date;
  /** Marks it as a certificate authority (basic constraints). */
  ca?: boolean;
}

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const day = 86_400_000;

/** Generates an ECDSA P-256 certificate with WebCrypto keys: self-signed, or issued by `issuer`. */
export async function makeCertificate(options: TestCertificateOptions = {}): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const subject = options.subject ?? `CN=idsvc test ${randomBytes(4).toString('hex')}`;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: `01${randomBytes(8).toString('hex')}`,
    subject,
    issuer: options.issuer?.subject ?? subject,
    notBefore: options.notBefore ?? new Date(now - day),
    notAfter: options.notAfter ?? new Date(now + 365 * day),
    publicKey: keys.publicKey,
    signingKey: options.issuer?.keys.privateKey ?? keys.privateKey,
    signingAlgorithm: algorithm,
    extensions: options.ca ? [new x509.BasicConstraintsExtension(true, undefined, true)] : [],
  });
  const der = Buffer.from(cert.rawData);
  return {
    der,
    base64: der.toString('base64'),
    pem: cert.toString('pem'),
    thumbprint: createHash('sha1').update(der).digest('hex').toUpperCase(),
    subject,
    keys,
  };
}

/** A self-signed certificate that expired a year ago. */
export const makeExpiredCertificate = (subject?: string) =>
  makeCertificate({
    subject,
    notBefore: new Date(Date.now() - 730 * day),
    notAfter: new Date(Date.now() - 365 * day),
  });

/** A certificate authority and a leaf certificate it issued. */
export async function makeChain(): Promise<{ ca: TestCertificate; leaf: TestCertificate }> {
  const ca = await makeCertificate({ ca: true, subject: `CN=idsvc test CA ${randomBytes(4).toString('hex')}` });
  const leaf = await makeCertificate({ issuer: ca });
  return { ca, leaf };
}
