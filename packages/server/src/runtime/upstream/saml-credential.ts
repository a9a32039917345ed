// @peculiar/x509 needs the Reflect metadata polyfill loaded before it; this import runs first.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { pemOf } from '../../crypto/pem.js';
import { systemState } from '../../db/schema/index.js';
import { runtimeDefaults } from '../defaults.js';
import { oncePerContext } from '../once-per-context.js';

/**
 * This service's own key as a SAML 2.0 service provider: it signs AuthnRequests (HTTP-Redirect binding) and
 * decrypts encrypted assertions. Its certificate is what the service provider metadata publishes.
 */
export interface SamlCredential {
  /** PKCS#8 PEM of the RSA-2048 private key. */
  privateKeyPem: string;
  /** PEM of the self-signed X.509 certificate of its public key. */
  certificatePem: string;
}

type CredentialContext = Pick<AppContext, 'db' | 'box' | 'baseUrl'>;

/** Subject CN when the entity id has no host to name. */
export const SAML_CREDENTIAL_SUBJECT = 'idsvc SAML service provider';
const YEARS_VALID = 10;
const algorithm = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
};

/**
 * The service provider credential of the database: made on first use, kept sealed in system_state so that every
 * instance sharing the database signs and decrypts with the same key. Read once per context.
 */
export const samlCredential: (ctx: CredentialContext) => Promise<SamlCredential> = oncePerContext(loadCredential);

async function readCredential(ctx: CredentialContext): Promise<SamlCredential | undefined> {
  const name = runtimeDefaults.samlCredentialState;
  const [row] = await ctx.db.select({ value: systemState.value }).from(systemState).where(eq(systemState.key, name));
  if (row === undefined) return undefined;
  const value = JSON.parse(ctx.box.open(String(row.value))) as Partial<SamlCredential>;
  if (typeof value.privateKeyPem !== 'string' || typeof value.certificatePem !== 'string') {
    throw new Error(`system_state.${name} does not hold a SAML credential`);
  }
  return { privateKeyPem: value.privateKeyPem, certificatePem: value.certificatePem };
}

/** Reads the stored credential; makes one when there is none, inserts it unless another instance did, reads back. */
async function loadCredential(ctx: CredentialContext): Promise<SamlCredential> {
  const stored = await readCredential(ctx);
  if (stored) return stored;
  const made = await makeCredential(credentialSubject(ctx.baseUrl()));
  await ctx.db
    .insert(systemState)
    .values({ key: runtimeDefaults.samlCredentialState, value: ctx.box.seal(JSON.stringify(made)) })
    .onConflictDoNothing();
  const agreed = await readCredential(ctx);
  if (!agreed) throw new Error(`system_state.${runtimeDefaults.samlCredentialState} was not kept`);
  return agreed;
}

/** The host of the service provider's entity id (under the base URL), or the fixed name when it has none. */
export function credentialSubject(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname || SAML_CREDENTIAL_SUBJECT;
  } catch {
    return SAML_CREDENTIAL_SUBJECT;
  }
}

/** An RSA-2048 key and its self-signed certificate (SHA-256 with RSA), valid ten years from now. */
export async function makeCredential(commonName: string, now = new Date()): Promise<SamlCredential> {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + YEARS_VALID);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    // A positive serial number: the leading byte keeps the high bit clear.
    serialNumber: `01${randomBytes(15).toString('hex')}`,
    name: [{ CN: [commonName] }],
    notBefore: now,
    notAfter,
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    ],
  });
  return {
    privateKeyPem: pemOf('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
    certificatePem: certificate.toString('pem'),
  };
}
