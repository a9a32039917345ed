import 'reflect-metadata';
import { createPrivateKey, createPublicKey, sign, verify, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemState } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../test-support/context.js';
import { runtimeDefaults } from '../defaults.js';
import { credentialSubject, samlCredential } from './saml-credential.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const storedRows = () =>
  ctx.db.select().from(systemState).where(eq(systemState.key, runtimeDefaults.samlCredentialState));

describe('the SAML service provider credential', () => {
  it('is made on first use: an RSA-2048 key and its self-signed SHA-256 certificate for ten years', async () => {
    expect(await storedRows()).toEqual([]);
    const before = Date.now();
    const credential = await samlCredential(ctx);
    const certificate = new X509Certificate(credential.certificatePem);
    expect(certificate.subject).toBe('CN=127.0.0.1');
    expect(certificate.issuer).toBe('CN=127.0.0.1');
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(new x509.X509Certificate(credential.certificatePem).signatureAlgorithm).toMatchObject({
      name: 'RSASSA-PKCS1-v1_5',
      hash: { name: 'SHA-256' },
    });
    expect(certificate.publicKey.asymmetricKeyDetails).toMatchObject({ modulusLength: 2048 });
    const from = Date.parse(certificate.validFrom);
    // The certificate's times are in whole seconds.
    expect(from).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(from).toBeLessThanOrEqual(Date.now());
    const to = new Date(from);
    to.setUTCFullYear(to.getUTCFullYear() + 10);
    expect(Date.parse(certificate.validTo)).toBe(to.getTime());
    // The private key is the certificate's.
    const key = createPrivateKey(credential.privateKeyPem);
    expect(createPublicKey(key).export({ format: 'jwk' })).toEqual(certificate.publicKey.export({ format: 'jwk' }));
    const signature = sign('sha256', Buffer.from('data'), key);
    expect(verify('sha256', Buffer.from('data'), certificate.publicKey, signature)).toBe(true);
  });

  it('is the same on the second call, with one row kept', async () => {
    const first = await samlCredential(ctx);
    expect(await samlCredential(ctx)).toEqual(first);
    expect(await storedRows()).toHaveLength(1);
  });

  it('is the same for a second context over the same database, and for two new ones asking at once', async () => {
    const first = await samlCredential(ctx);
    expect(await samlCredential({ ...ctx })).toEqual(first);
    const [a, b] = await Promise.all([samlCredential({ ...ctx }), samlCredential({ ...ctx })]);
    expect(a).toEqual(first);
    expect(b).toEqual(first);
    expect(await storedRows()).toHaveLength(1);
  });

  it('is kept sealed in system_state: the stored value is not the plain key', async () => {
    const credential = await samlCredential(ctx);
    const [row] = await storedRows();
    const stored = String(row.value);
    expect(typeof row.value).toBe('string');
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain('PRIVATE KEY');
    const keyBody = credential.privateKeyPem.split('\n').slice(1, 3).join('');
    expect(stored).not.toContain(keyBody);
    expect(JSON.parse(ctx.box.open(stored))).toEqual(credential);
  });

  it('names the host of the entity id as its subject, or a fixed name when there is none', () => {
    expect(credentialSubject('https://id.example.test:8443/base')).toBe('id.example.test');
    expect(credentialSubject('urn:no-host')).toBe('idsvc SAML service provider');
    expect(credentialSubject('not a url')).toBe('idsvc SAML service provider');
  });
});
