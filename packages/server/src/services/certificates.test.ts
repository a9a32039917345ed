import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Certificates_GetAll } from '@idsvc/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ParsedCertificate, parseDer } from '../certificates/parse.js';
import { type ListQueryInput, listRequest } from '../conventions/list.js';
import { auditRecords, connections } from '../db/schema/index.js';
import {
  makeCertificate,
  makeChain,
  makeExpiredCertificate,
  type TestCertificate,
} from '../test-support/certificates.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { type CertificateService, certificateService } from './certificates.js';

const by = { actor: 'tester', requestId: 'req-cert' };

let ctx: TestContext;
let service: CertificateService;
let root: TestCertificate;
/** A second LocalMachine certificate, never copied elsewhere. */
let spare: TestCertificate;
let roots: ParsedCertificate[];

const folder = () => join(ctx.dataDir, 'certificates', 'CurrentUser');
const list = (storeName: 'DatabaseStore' | 'CurrentUser' | 'LocalMachine' | 'All', query: ListQueryInput = {}) =>
  service.list(storeName, listRequest(Certificates_GetAll.list, query));
const thumbprints = (items: { thumbprint: string }[]) => items.map((c) => c.thumbprint);
const auditOf = (thumbprint: string) =>
  ctx.db
    .select({ operation: auditRecords.operation, changes: auditRecords.changes, actor: auditRecords.actor })
    .from(auditRecords)
    .where(and(eq(auditRecords.entityType, 'certificate'), eq(auditRecords.entityKey, thumbprint)))
    .orderBy(auditRecords.id);
const useInConnection = (name: string, certificates: string[]) =>
  ctx.db.insert(connections).values({ name, connectionType: 'Protocol', pluginType: 'Saml20', certificates });
/** A thumbprint as a person might type it: lower case, in colon-separated pairs. */
const typed = (thumbprint: string) => (thumbprint.toLowerCase().match(/../g) ?? []).join(':');

beforeAll(async () => {
  ctx = await createTestContext();
  root = await makeCertificate({ subject: 'CN=test root', ca: true });
  spare = await makeCertificate({ subject: 'CN=spare root', ca: true });
  roots = [parseDer(root.der), parseDer(spare.der)];
  service = certificateService(ctx, { localMachine: async () => roots });
});

afterAll(async () => {
  await ctx?.close();
});

describe('create', () => {
  it('stores a certificate in DatabaseStore and audits it', async () => {
    const cert = await makeCertificate({ subject: 'CN=db one' });
    const created = await service.create(cert.pem, 'DatabaseStore', by);
    expect(created).toEqual({
      thumbprint: cert.thumbprint,
      subject: 'CN=db one',
      issuer: 'CN=db one',
      serialNumber: expect.stringMatching(/^01[0-9A-F]{16}$/),
      validFrom: expect.stringMatching(/Z$/),
      validTo: expect.stringMatching(/Z$/),
      isInUse: false,
      storeName: 'DatabaseStore',
    });
    expect(await service.get(cert.thumbprint, 'DatabaseStore')).toEqual(created);
    expect(await auditOf(cert.thumbprint)).toEqual([
      {
        operation: 'create',
        actor: 'tester',
        changes: {
          storeName: 'DatabaseStore',
          subject: 'CN=db one',
          issuer: 'CN=db one',
          serialNumber: created.serialNumber,
          validTo: created.validTo,
        },
      },
    ]);
  });

  it('writes a CurrentUser certificate as <THUMBPRINT>.cer holding the DER', async () => {
    const cert = await makeCertificate();
    const created = await service.create(cert.base64, 'CurrentUser', by);
    expect(created.storeName).toBe('CurrentUser');
    expect((await readFile(join(folder(), `${cert.thumbprint}.cer`))).equals(cert.der)).toBe(true);
    expect((await auditOf(cert.thumbprint)).map((a) => a.changes?.storeName)).toEqual(['CurrentUser']);
  });

  it('answers 409 for a thumbprint the store holds, and 400 for input that is not a certificate', async () => {
    const cert = await makeCertificate();
    await service.create(cert.base64, 'DatabaseStore', by);
    await expect(service.create(cert.pem, 'DatabaseStore', by)).rejects.toMatchObject({
      status: 409,
      message: `a certificate with thumbprint ${cert.thumbprint} exists in DatabaseStore`,
    });
    await expect(service.create('bm90IGEgY2VydA==', 'DatabaseStore', by)).rejects.toMatchObject({
      status: 400,
      message: 'invalid certificate: the data is not a DER-encoded X.509 certificate (it is not an ASN.1 SEQUENCE)',
    });
  });

  it('undoes the audit record and the files written when a file of the batch exists meanwhile', async () => {
    const first = await makeCertificate();
    const second = await makeCertificate();
    // a file in the way that is not a certificate: invisible to the store, but it blocks the atomic write
    await writeFile(join(folder(), `${second.thumbprint}.cer`), 'in the way');
    await expect(
      service.createMany(
        [first.base64, second.base64],
        { uploadCertificateMode: 'FromFile', storeName: 'CurrentUser' },
        by,
      ),
    ).rejects.toMatchObject({ status: 409 });
    expect(await readdir(folder())).not.toContain(`${first.thumbprint}.cer`);
    expect(await auditOf(first.thumbprint)).toEqual([]);
  });
});

describe('isInUse and deleting', () => {
  it('sees a connection that lists the thumbprint in another case and with separators', async () => {
    const cert = await makeCertificate();
    await service.create(cert.base64, 'DatabaseStore', by);
    await useInConnection('saml-in-use', [typed(cert.thumbprint)]);
    expect((await service.get(cert.thumbprint, 'DatabaseStore')).isInUse).toBe(true);
    const listed = (await list('DatabaseStore')).items.find((c) => c.thumbprint === cert.thumbprint);
    expect(listed?.isInUse).toBe(true);
  });

  it('refuses to delete a certificate in use (409 naming the connection) and keeps it', async () => {
    const cert = await makeCertificate();
    await service.create(cert.base64, 'DatabaseStore', by);
    await useInConnection('saml-keeps', [cert.thumbprint]);
    await expect(
      service.delete(cert.thumbprint, { storeName: 'DatabaseStore', forceDeleteInUse: false }, by),
    ).rejects.toMatchObject({
      status: 409,
      message: `the certificate ${cert.thumbprint} is in use by the connection(s) saml-keeps; delete it with forceDeleteInUse=true`,
    });
    expect((await service.get(cert.thumbprint, 'DatabaseStore')).thumbprint).toBe(cert.thumbprint);
  });

  it('deletes it with forceDeleteInUse, keeps the connection list, and audits the connections', async () => {
    const cert = await makeCertificate();
    await service.create(cert.base64, 'DatabaseStore', by);
    await useInConnection('saml-forced', [cert.thumbprint]);
    await service.delete(typed(cert.thumbprint), { storeName: 'DatabaseStore', forceDeleteInUse: true }, by);
    await expect(service.get(cert.thumbprint, 'DatabaseStore')).rejects.toMatchObject({ status: 404 });
    const [conn] = await ctx.db
      .select({ certificates: connections.certificates })
      .from(connections)
      .where(eq(connections.name, 'saml-forced'));
    expect(conn.certificates).toEqual([cert.thumbprint]);
    expect((await auditOf(cert.thumbprint)).at(-1)).toEqual({
      operation: 'delete',
      actor: 'tester',
      changes: { storeName: 'DatabaseStore', forceDeleteInUse: true, usedByConnections: ['saml-forced'] },
    });
  });

  it('answers 404 for a missing or malformed thumbprint', async () => {
    const options = { storeName: 'DatabaseStore' as const, forceDeleteInUse: false };
    await expect(service.delete('AB'.repeat(20), options, by)).rejects.toMatchObject({
      status: 404,
      message: `no certificate with thumbprint ${'AB'.repeat(20)} in DatabaseStore`,
    });
    await expect(service.delete('nope', options, by)).rejects.toMatchObject({ status: 404 });
  });

  it('deletes a CurrentUser certificate file', async () => {
    const cert = await makeCertificate();
    await service.create(cert.base64, 'CurrentUser', by);
    await service.delete(cert.thumbprint, { storeName: 'CurrentUser', forceDeleteInUse: false }, by);
    expect(await readdir(folder())).not.toContain(`${cert.thumbprint}.cer`);
    expect((await auditOf(cert.thumbprint)).map((a) => a.operation)).toEqual(['create', 'delete']);
  });

  it('deleteMany changes nothing when one is missing (404) or in use (409), naming the items', async () => {
    const a = await makeCertificate();
    const b = await makeCertificate();
    await service.createMany([a.base64, b.base64], { uploadCertificateMode: 'FromFile' }, by);
    const options = { storeName: 'DatabaseStore' as const, forceDeleteInUse: false };
    const missing = 'CD'.repeat(20);
    await expect(service.deleteMany([a.thumbprint, missing], options, by)).rejects.toMatchObject({
      status: 404,
      details: [
        {
          index: 1,
          id: missing,
          error: 'not_found',
          message: `no certificate with thumbprint ${missing} in DatabaseStore`,
        },
      ],
    });
    await useInConnection('saml-many', [b.thumbprint]);
    await expect(service.deleteMany([a.thumbprint, b.thumbprint], options, by)).rejects.toMatchObject({
      status: 409,
      details: [{ index: 1, id: b.thumbprint, error: 'conflict' }],
    });
    expect(thumbprints((await list('DatabaseStore')).items)).toEqual(
      expect.arrayContaining([a.thumbprint, b.thumbprint]),
    );
    await service.deleteMany([a.thumbprint, b.thumbprint], { ...options, forceDeleteInUse: true }, by);
    await expect(service.get(a.thumbprint, 'DatabaseStore')).rejects.toMatchObject({ status: 404 });
    await expect(service.get(b.thumbprint, 'DatabaseStore')).rejects.toMatchObject({ status: 404 });
  });
});

describe('createMany', () => {
  it('answers 400 naming every invalid item, and stores none', async () => {
    const good = await makeCertificate();
    await expect(
      service.createMany([good.base64, 'not base64!', 'AAAA'], { uploadCertificateMode: 'FromFile' }, by),
    ).rejects.toMatchObject({
      status: 400,
      message: '2 of 3 items are not valid certificates; nothing was changed',
      details: [
        { index: 1, id: 'item 1', error: 'invalid_request', message: expect.stringContaining('not valid base64') },
        { index: 2, id: 'item 2', error: 'invalid_request', message: expect.stringContaining('not a DER-encoded') },
      ],
    });
    await expect(service.get(good.thumbprint, 'All')).rejects.toMatchObject({ status: 404 });
  });

  it('answers 409 for a certificate given twice', async () => {
    const cert = await makeCertificate();
    await expect(
      service.createMany([cert.base64, cert.pem], { uploadCertificateMode: 'FromFile' }, by),
    ).rejects.toMatchObject({ status: 409, details: [{ index: 1, id: cert.thumbprint, error: 'conflict' }] });
  });

  it('copies from CurrentUser and LocalMachine into DatabaseStore with FromWindowStore', async () => {
    const user = await makeCertificate();
    await service.create(user.base64, 'CurrentUser', by);
    const copied = await service.createMany(
      [typed(user.thumbprint), root.thumbprint],
      { uploadCertificateMode: 'FromWindowStore' },
      by,
    );
    expect(copied.map((c) => [c.thumbprint, c.storeName])).toEqual([
      [user.thumbprint, 'DatabaseStore'],
      [root.thumbprint, 'DatabaseStore'],
    ]);
    expect((await auditOf(root.thumbprint)).at(-1)?.changes?.copiedFrom).toBe('LocalMachine');
    expect((await auditOf(user.thumbprint)).at(-1)?.changes?.copiedFrom).toBe('CurrentUser');
    // still in CurrentUser too
    expect((await service.get(user.thumbprint, 'CurrentUser')).storeName).toBe('CurrentUser');
  });

  it('FromWindowStore: 404 for a thumbprint in neither store, 400 with a storeName', async () => {
    const missing = 'EF'.repeat(20);
    await expect(service.createMany([missing], { uploadCertificateMode: 'FromWindowStore' }, by)).rejects.toMatchObject(
      { status: 404, details: [{ index: 0, id: missing, error: 'not_found' }] },
    );
    await expect(
      service.createMany(
        [root.thumbprint],
        { uploadCertificateMode: 'FromWindowStore', storeName: 'DatabaseStore' },
        by,
      ),
    ).rejects.toMatchObject({ status: 400 });
  });
});

describe('list and get', () => {
  it('lists All once per thumbprint, the first store winning', async () => {
    const both = await makeCertificate();
    await service.create(both.base64, 'CurrentUser', by);
    await service.create(both.base64, 'DatabaseStore', by);
    const all = (await list('All')).items.filter((c) => c.thumbprint === both.thumbprint);
    expect(all.map((c) => c.storeName)).toEqual(['DatabaseStore']);
    expect((await service.get(both.thumbprint, 'All')).storeName).toBe('DatabaseStore');
    expect((await service.get(spare.thumbprint, 'All')).storeName).toBe('LocalMachine');
    expect(thumbprints((await list('LocalMachine')).items)).toEqual([root.thumbprint, spare.thumbprint].sort());
  });

  it('pages and sorts a file store, with the total before paging', async () => {
    const everything = await list('CurrentUser');
    expect(everything.total).toBe(everything.items.length);
    expect(thumbprints(everything.items)).toEqual([...thumbprints(everything.items)].sort());
    const page = await list('CurrentUser', { pageIndex: '2', pageSize: '2', sortOrder: 'Descending' });
    expect(thumbprints(page.items)).toEqual([...thumbprints(everything.items)].reverse().slice(2, 4));
    expect(page.total).toBe(everything.total);
  });

  it('sorts by validTo and isInUse', async () => {
    const expired = await makeExpiredCertificate();
    const { ca, leaf } = await makeChain();
    await service.createMany([expired.base64, ca.pem, leaf.pem], { uploadCertificateMode: 'FromFile' }, by);
    const byValidTo = (await list('DatabaseStore', { sortBy: 'validTo' })).items;
    expect(byValidTo[0].thumbprint).toBe(expired.thumbprint);
    const dates = byValidTo.map((c) => c.validTo);
    expect(dates).toEqual([...dates].sort());
    const byUse = (await list('DatabaseStore', { sortBy: 'isInUse', sortOrder: 'Descending' })).items;
    expect(byUse[0].isInUse).toBe(true);
    expect(byUse.at(-1)?.isInUse).toBe(false);
  });

  it('filters any store in SQL, the file and system stores too', async () => {
    const local = await list('All', { filter: 'storeName eq "LocalMachine"' });
    expect(thumbprints(local.items)).toEqual([spare.thumbprint]);
    const used = await list('DatabaseStore', { filter: 'isInUse eq true' });
    expect(used.items.length).toBeGreaterThan(0);
    expect(used.items.every((c) => c.isInUse)).toBe(true);
    await expect(list('CurrentUser', { filter: 'bogus eq "x"' })).rejects.toMatchObject({ code: 'invalid_filter' });
  });

  it('answers 404 for a thumbprint in no store', async () => {
    await expect(service.get('12'.repeat(20), 'All')).rejects.toMatchObject({
      status: 404,
      message: `no certificate with thumbprint ${'12'.repeat(20)} in any store`,
    });
  });

  it('findMany resolves thumbprints across the stores, in order, leaving out unknown ones', async () => {
    const found = await service.findMany([typed(spare.thumbprint), 'AB'.repeat(20), root.thumbprint]);
    expect(found.map((c) => [c.thumbprint, c.storeName])).toEqual([
      [spare.thumbprint, 'LocalMachine'],
      [root.thumbprint, 'DatabaseStore'],
    ]);
  });
});
