import 'reflect-metadata';
import type { ConnectionInput } from '@idsvc/shared';
import * as x509 from '@peculiar/x509';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCertificate } from '../certificates/parse.js';
import { sha256 } from '../crypto/digest.js';
import { auditRecords, connections, consents, transformations } from '../db/schema/index.js';
import { ApiError } from '../http/api-error.js';
import { insertCertificates } from '../queries/connection-references.js';
import { authenticateClient, hmacSecretOf } from '../runtime/clients.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { createTestUser } from '../test-support/fixtures.js';
import { connectionService } from './connections.js';

const by = { actor: 'tester', requestId: 'req-c' };

let ctx: TestContext;
let service: ReturnType<typeof connectionService>;

async function status(run: Promise<unknown>): Promise<number> {
  try {
    await run;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
  return 200;
}

async function makeCertificate(subject: string): Promise<string> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: subject,
    signingAlgorithm: algorithm,
    keys,
  });
  return Buffer.from(cert.rawData).toString('base64');
}

const client = (name: string, configuration: Record<string, unknown> = {}): ConnectionInput => ({
  name,
  connectionType: 'Protocol',
  pluginType: 'OAuth20',
  configuration,
});

const saml = (name: string, configuration: Record<string, unknown> = {}): ConnectionInput => ({
  name,
  connectionType: 'Authentication',
  pluginType: 'Saml20',
  configuration: { entityId: `urn:${name}`, ...configuration },
});

const row = async (name: string) => (await ctx.db.select().from(connections).where(eq(connections.name, name)))[0];

beforeAll(async () => {
  ctx = await createTestContext();
  service = connectionService(ctx.db, ctx.box);
  await ctx.db.insert(transformations).values([{ name: 'DropEmail' }, { name: 'AddRole' }]);
});

afterAll(async () => {
  await ctx?.close();
});

describe('OAuth20 client secrets', () => {
  it('generates a secret shown once, stored as the digest the runtime checks', async () => {
    const created = await service.create(client('pipeline', { allowedGrantTypes: ['client_credentials'] }), by);
    const secret = created.configuration.clientSecret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.configuration.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.scopes).toEqual(['openid', 'profile', 'email', 'phone', 'address', 'offline_access']);
    expect((await row('pipeline')).clientSecretHash).toBe(sha256(secret));
    expect((await service.get('pipeline')).configuration.clientSecret).toBeUndefined();
    const clientId = created.configuration.clientId as string;
    const found = await authenticateClient(ctx, { clientId, clientSecret: secret, method: 'client_secret_post' });
    expect(found.name).toBe('pipeline');
    const [record] = await ctx.db.select().from(auditRecords).where(sql`${auditRecords.entityKey} = 'pipeline'`);
    expect(JSON.stringify(record.changes)).not.toContain(secret);
  });

  it('keeps the secret on a PUT without one and replaces it on a PUT with one', async () => {
    const created = await service.create(client('keeper', { allowedGrantTypes: ['client_credentials'] }), by);
    const clientId = created.configuration.clientId as string;
    const first = created.configuration.clientSecret as string;
    const kept = await service.update(client('keeper', { clientId, accessTokenLifetime: 60 }), by);
    expect(kept.configuration).toMatchObject({ clientId, accessTokenLifetime: 60 });
    expect(kept.configuration.clientSecret).toBeUndefined();
    expect((await row('keeper')).clientSecretHash).toBe(sha256(first));
    await service.update(client('keeper', { clientId, clientSecret: 'a-new-secret-of-the-owner' }), by);
    expect((await row('keeper')).clientSecretHash).toBe(sha256('a-new-secret-of-the-owner'));
  });

  it('seals an HS384 secret for the runtime to sign with, and refuses a switch to HMAC from a digest', async () => {
    const key = 'k'.repeat(48);
    await service.create(client('hmac', { clientId: 'hmac-client', signingAlgorithm: 'HS384', clientSecret: key }), by);
    const stored = await row('hmac');
    expect(stored.clientSecretHash).toBeNull();
    const found = await authenticateClient(ctx, {
      clientId: 'hmac-client',
      clientSecret: key,
      method: 'client_secret_post',
    });
    expect(hmacSecretOf(ctx.box, found)).toBe(key);
    // back to RS256: the sealed secret becomes a digest
    await service.update(client('hmac', { clientId: 'hmac-client' }), by);
    expect(await row('hmac')).toMatchObject({ clientSecretHash: sha256(key), clientSecretEnc: null });
    expect(
      await status(service.update(client('hmac', { clientId: 'hmac-client', signingAlgorithm: 'HS384' }), by)),
    ).toBe(400);
  });

  it('generates a secret of the HMAC length when none is given', async () => {
    const created = await service.create(client('hs512', { signingAlgorithm: 'HS512' }), by);
    expect(Buffer.byteLength(created.configuration.clientSecret as string)).toBe(64);
  });

  it('gives a public client no secret, and one once it becomes confidential', async () => {
    const created = await service.create(client('spa', { publicClient: true }), by);
    expect(created.configuration.clientSecret).toBeUndefined();
    expect(await row('spa')).toMatchObject({ clientSecretHash: null, clientSecretEnc: null });
    const clientId = created.configuration.clientId;
    const updated = await service.update(client('spa', { clientId, publicClient: false }), by);
    expect((await row('spa')).clientSecretHash).toBe(sha256(updated.configuration.clientSecret as string));
  });

  it('answers 409 for a taken client id or name', async () => {
    await service.create(client('first', { clientId: 'shared-id' }), by);
    expect(await status(service.create(client('second', { clientId: 'shared-id' }), by))).toBe(409);
    expect(await status(service.create(client('FIRST'), by))).toBe(409);
    expect(await status(service.create(client('second', { clientId: 'idsvc-cli' }), by))).toBe(409);
  });
});

describe('other plugin types', () => {
  it('keeps a generic OpenID Connect provider secret sealed and uses its client id as entity id', async () => {
    const created = await service.create(
      {
        name: 'upstream',
        connectionType: 'Authentication',
        pluginType: 'GenericOidcProvider',
        configuration: { issuer: 'https://idp.example', clientId: 'idsvc-at-idp', clientSecret: 'upstream-secret' },
      },
      by,
    );
    expect(created.entityId).toBe('idsvc-at-idp');
    expect(created.configuration.clientSecret).toBeUndefined();
    const stored = await row('upstream');
    expect(ctx.box.open(stored.clientSecretEnc!)).toBe('upstream-secret');
    expect(stored.clientId).toBeNull();
    await service.update(
      {
        name: 'upstream',
        connectionType: 'Authentication',
        pluginType: 'GenericOidcProvider',
        configuration: { issuer: 'https://idp.example', clientId: 'idsvc-at-idp', usePkce: false },
      },
      by,
    );
    expect(ctx.box.open((await row('upstream')).clientSecretEnc!)).toBe('upstream-secret');
  });

  it('creates a second-factor connection with its defaults, and refuses a change of plugin type', async () => {
    const created = await service.create(
      { name: 'authenticator', connectionType: 'SecondFactor', pluginType: 'Totp' },
      by,
    );
    expect(created.configuration).toEqual({
      enableAuthenticatorFromMyProfile: true,
      issuer: 'idsvc',
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    });
    expect(
      await status(service.update({ name: 'authenticator', connectionType: 'SecondFactor', pluginType: 'SmsOtp' }, by)),
    ).toBe(400);
  });
});

describe('references', () => {
  it('answers 404 for a missing dependency, claim set, transformation or certificate', async () => {
    const input = client('refs');
    expect(await status(service.create({ ...input, dependencyConnectionNames: ['nope'] }, by))).toBe(404);
    expect(await status(service.create({ ...input, claimSets: ['nope'] }, by))).toBe(404);
    expect(await status(service.create({ ...input, claimTransformations: ['nope'] }, by))).toBe(404);
    expect(await status(service.create({ ...saml('refs'), certificates: ['A'.repeat(40)] }, by))).toBe(404);
    expect(await status(service.create({ ...input, certificates: ['A'.repeat(40)] }, by))).toBe(400);
    const created = await service.create(
      { ...input, dependencyConnectionNames: ['usernamepassword'], claimTransformations: ['dropemail'] },
      by,
    );
    expect(created).toMatchObject({
      dependencyConnectionNames: ['UsernamePassword'],
      claimTransformations: ['DropEmail'],
    });
  });
});

describe('transformations and certificates', () => {
  it('adds and removes claim transformations', async () => {
    await service.create(saml('tx'), by);
    expect((await service.addTransformations('tx', ['AddRole', 'dropemail'], by)).claimTransformations).toEqual([
      'AddRole',
      'DropEmail',
    ]);
    expect((await service.addTransformations('tx', ['addrole'], by)).claimTransformations).toEqual([
      'DropEmail',
      'AddRole',
    ]);
    expect((await service.removeTransformations('tx', ['DropEmail'], by)).claimTransformations).toEqual(['AddRole']);
    expect(await status(service.addTransformations('tx', ['Missing'], by))).toBe(404);
    expect(await status(service.addTransformations('missing', ['AddRole'], by))).toBe(404);
    expect(await status(service.addTransformations('tx', [' '], by))).toBe(400);
  });

  it('applies certificates of the database store to connections that hold them', async () => {
    const cert = parseCertificate(await makeCertificate('CN=partner'));
    await insertCertificates(ctx.db, [cert]);
    await service.create(saml('certs'), by);
    await service.putCertificates({ connectionName: 'certs', certificates: [cert.thumbprint.toLowerCase()] }, by);
    expect(await service.getCertificates('certs')).toEqual([
      {
        thumbprint: cert.thumbprint,
        subject: 'CN=partner',
        issuer: 'CN=partner',
        serialNumber: '01',
        validFrom: cert.validFrom.toISOString(),
        validTo: cert.validTo.toISOString(),
        isInUse: true,
        storeName: 'DatabaseStore',
      },
    ]);
    expect(await status(service.putCertificates({ connectionName: 'certs', certificates: ['B'.repeat(40)] }, by))).toBe(
      404,
    );
    expect(await status(service.putCertificates({ connectionName: 'pipeline', certificates: [] }, by))).toBe(400);
    expect(await status(service.getCertificates('missing'))).toBe(404);
  });

  it('stores signing certificates given in the configuration and applies them', async () => {
    const base64 = await makeCertificate('CN=signing');
    const thumbprint = parseCertificate(base64).thumbprint;
    const created = await service.create(saml('signed', { signingCertificates: [base64] }), by);
    expect(created.configuration.signingCertificates).toEqual([thumbprint]);
    expect(created.certificates).toEqual([thumbprint]);
    expect(await status(service.create(saml('badcert', { signingCertificates: ['bm90IGEgY2VydA=='] }), by))).toBe(400);
  });
});

describe('delete and reset consent', () => {
  it('refuses the built-in connections and one another depends on', async () => {
    expect(await status(service.delete('UsernamePassword', by))).toBe(409);
    expect(await status(service.delete('idsvc-cli', by))).toBe(409);
    await service.create(saml('base'), by);
    await service.create({ ...client('dependent'), dependencyConnectionNames: ['base'] }, by);
    expect(await status(service.delete('base', by))).toBe(409);
    await service.delete('dependent', by);
    await service.delete('base', by);
    expect(await status(service.delete('base', by))).toBe(404);
  });

  it('deletes every consent of the connection', async () => {
    const created = await service.create(client('consented'), by);
    const user = await createTestUser(ctx.db);
    await ctx.db.insert(consents).values({ userId: user.id, connectionId: created.id, scopes: ['openid'] });
    await service.resetConsent('consented', by);
    expect(await ctx.db.select().from(consents).where(eq(consents.connectionId, created.id))).toEqual([]);
    expect(await status(service.resetConsent('missing', by))).toBe(404);
  });
});

describe('patch', () => {
  it('changes configuration fields of a SAML 2.0 connection and refuses other plugin types', async () => {
    await service.create(saml('patched'), by);
    const patched = await service.patch(
      'patched',
      [
        { op: 'replace', path: 'configuration.wantAssertionsSigned', value: false },
        { op: 'add', path: 'scopes', value: 'openid' },
        { op: 'replace', path: 'enabled', value: false },
      ],
      by,
    );
    expect(patched).toMatchObject({ enabled: false, scopes: ['openid'], entityId: 'urn:patched' });
    expect(patched.configuration.wantAssertionsSigned).toBe(false);
    expect(await status(service.patch('pipeline', [{ op: 'replace', path: 'enabled', value: false }], by))).toBe(400);
    expect(await status(service.patch('patched', [{ op: 'replace', path: 'enabled', value: 'no' }], by))).toBe(400);
    expect(await status(service.patch('patched', [{ op: 'replace', path: 'configuration.nope', value: 1 }], by))).toBe(
      400,
    );
  });
});
