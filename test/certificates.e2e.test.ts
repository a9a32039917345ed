import { createHash } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  makeCertificate,
  makeChain,
  makeExpiredCertificate,
  type TestCertificate,
} from '../packages/server/src/test-support/certificates.js';
import { apiBase, createUserWithRole, type Json, links, totalCount, unique, userApi } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { serverPerFile } from './helpers/fixtures.js';

const certificates = `${apiBase}/certificates`;
const many = `${certificates}/many`;
const ctx = serverPerFile();

type Certificate = Json & { thumbprint: string; storeName: string; isInUse: boolean; validTo: string };

/** Uploads a certificate as set-up; throws unless the answer is 200. */
async function uploaded(cert: TestCertificate, storeName = 'DatabaseStore'): Promise<Certificate> {
  const response = await ctx.admin.post<Certificate>(certificates, { body: cert.base64, query: { storeName } });
  if (response.status !== 200) throw new Error(`set-up upload: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

const thumbprintsOf = (items: unknown) => (items as Certificate[]).map((c) => c.thumbprint);
/** A thumbprint as a person might paste it: lower case, in colon-separated pairs. */
const typed = (thumbprint: string) => (thumbprint.toLowerCase().match(/../g) ?? []).join(':');
/** The thumbprint of one of Node's bundled trusted roots, which the LocalMachine store holds. */
const rootThumbprint = (pem: string) =>
  createHash('sha1')
    .update(Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'))
    .digest('hex')
    .toUpperCase();

describe('Certificates_PostCertificate', () => {
  it('stores a base64 DER certificate in DatabaseStore and answers 200 with it', async () => {
    const cert = await makeCertificate({ subject: 'CN=e2e upload, O=idsvc' });
    const response = await ctx.admin.post(certificates, { body: cert.base64 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      thumbprint: cert.thumbprint,
      subject: 'CN=e2e upload, O=idsvc',
      issuer: 'CN=e2e upload, O=idsvc',
      serialNumber: expect.stringMatching(/^[0-9A-F]+$/),
      validFrom: expect.any(String),
      validTo: expect.any(String),
      isInUse: false,
      storeName: 'DatabaseStore',
    });
    expect((await ctx.admin.get(`${certificates}/${cert.thumbprint}`)).body).toEqual(response.body);
  });

  it('accepts PEM text, and an expired certificate (its validTo in the past)', async () => {
    const expired = await makeExpiredCertificate();
    const response = await ctx.admin.post<Certificate>(certificates, { body: expired.pem });
    expect(response.status).toBe(200);
    expect(response.body.thumbprint).toBe(expired.thumbprint);
    expect(Date.parse(response.body.validTo)).toBeLessThan(Date.now());
  });

  it('answers 409 for a thumbprint DatabaseStore holds', async () => {
    const cert = await makeCertificate();
    await uploaded(cert);
    expectError(await ctx.admin.post(certificates, { body: cert.pem }), 409, 'conflict');
  });

  it('answers 400 for bad base64, bytes that are not a certificate, and a PEM chain; storing nothing', async () => {
    const bad = await ctx.admin.post(certificates, { body: 'MIIB%%%not-base64' });
    expectError(bad, 400, 'invalid_request');
    expect((bad.body as Json).message).toContain('not valid base64');
    const notCert = await ctx.admin.post(certificates, { body: Buffer.from('just some text').toString('base64') });
    expectError(notCert, 400, 'invalid_request');
    expect((notCert.body as Json).message).toContain('not a DER-encoded X.509 certificate');
    const { ca, leaf } = await makeChain();
    const chain = await ctx.admin.post(certificates, { body: `${leaf.pem}\n${ca.pem}` });
    expectError(chain, 400, 'invalid_request');
    expect((chain.body as Json).message).toContain('holds 2 certificates');
    expectError(await ctx.admin.get(`${certificates}/${leaf.thumbprint}`), 404, 'not_found');
  });

  it('answers 400 for a body that is not a JSON string, and for storeName LocalMachine', async () => {
    expectError(await ctx.admin.post(certificates, { body: { data: 'x' } }), 400, 'invalid_request');
    const cert = await makeCertificate();
    const readOnly = await ctx.admin.post(certificates, { body: cert.base64, query: { storeName: 'LocalMachine' } });
    expectError(readOnly, 400, 'invalid_request');
  });

  it('stores into CurrentUser, a store of its own', async () => {
    const cert = await makeCertificate();
    expect((await uploaded(cert, 'CurrentUser')).storeName).toBe('CurrentUser');
    expectError(await ctx.admin.get(`${certificates}/${cert.thumbprint}`), 404, 'not_found');
    const found = await ctx.admin.get<Certificate>(`${certificates}/${cert.thumbprint}`, {
      query: { storeName: 'CurrentUser' },
    });
    expect(found.body.storeName).toBe('CurrentUser');
  });

  it('is refused to an Observer (403)', async () => {
    const user = await createUserWithRole(ctx.admin, unique('certobs'), 'Observer');
    const observer = await userApi(ctx.server.url, user.userName);
    const cert = await makeCertificate();
    expectError(await observer.post(certificates, { body: cert.base64 }), 403, 'forbidden');
    expect((await observer.get(certificates)).status).toBe(200);
  });
});

describe('Certificates_GetCertificate', () => {
  it('finds a certificate by a lower-case, colon-separated thumbprint', async () => {
    const cert = await makeCertificate();
    await uploaded(cert);
    const response = await ctx.admin.get<Certificate>(`${certificates}/${typed(cert.thumbprint)}`);
    expect(response.status).toBe(200);
    expect(response.body.thumbprint).toBe(cert.thumbprint);
  });

  it("finds one of the system's trusted roots in LocalMachine and in All", async () => {
    const thumbprint = rootThumbprint(rootCertificates[0]);
    for (const storeName of ['LocalMachine', 'All']) {
      const response = await ctx.admin.get<Certificate>(`${certificates}/${thumbprint}`, { query: { storeName } });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ thumbprint, storeName: 'LocalMachine', isInUse: false });
    }
  });

  it('answers 404 for a thumbprint no store holds, and 400 for an unknown storeName', async () => {
    expectError(
      await ctx.admin.get(`${certificates}/${'AB'.repeat(20)}`, { query: { storeName: 'All' } }),
      404,
      'not_found',
    );
    expectError(await ctx.admin.get(`${certificates}/not-a-thumbprint`), 404, 'not_found');
    expectError(
      await ctx.admin.get(`${certificates}/${'AB'.repeat(20)}`, { query: { storeName: 'Nowhere' } }),
      400,
      'invalid_request',
    );
  });
});

describe('Certificates_GetAll', () => {
  let mine: TestCertificate[];

  beforeAll(async () => {
    // expired long before any other certificate of this file, so that it sorts last by validTo descending
    const ancient = await makeCertificate({ notBefore: new Date('2001-01-01'), notAfter: new Date('2002-01-01') });
    mine = [ancient, await makeCertificate(), await makeCertificate()];
    for (const cert of mine) await uploaded(cert);
  });

  it('lists DatabaseStore sorted by thumbprint, with X-Total-Count', async () => {
    const response = await ctx.admin.get<Certificate[]>(certificates);
    expect(response.status).toBe(200);
    const listed = thumbprintsOf(response.body);
    expect(listed).toEqual(expect.arrayContaining(mine.map((c) => c.thumbprint)));
    expect(listed).toEqual([...listed].sort());
    expect(totalCount(response)).toBe(listed.length);
    expect(response.body.every((c) => c.storeName === 'DatabaseStore')).toBe(true);
  });

  it('pages with Link headers and sorts by validTo descending', async () => {
    const everything = thumbprintsOf((await ctx.admin.get(certificates)).body);
    const page = await ctx.admin.get(certificates, { query: { pageIndex: 2, pageSize: 2 } });
    expect(thumbprintsOf(page.body)).toEqual(everything.slice(2, 4));
    expect(totalCount(page)).toBe(everything.length);
    expect(Object.keys(links(page))).toContain('prev');
    const byValidTo = (
      await ctx.admin.get<Certificate[]>(certificates, { query: { sortBy: 'validTo', sortOrder: 'Descending' } })
    ).body;
    expect(byValidTo.at(-1)?.thumbprint).toBe(mine[0].thumbprint);
  });

  it('lists LocalMachine (the trusted roots) and All (each thumbprint once) with paging', async () => {
    const local = await ctx.admin.get<Certificate[]>(certificates, {
      query: { storeName: 'LocalMachine', pageSize: 10 },
    });
    expect(local.status).toBe(200);
    expect(local.body).toHaveLength(10);
    expect(totalCount(local)).toBeGreaterThanOrEqual(rootCertificates.length);
    expect(Object.keys(links(local))).toEqual(['next']);
    const all = await ctx.admin.get<Certificate[]>(certificates, { query: { storeName: 'All' } });
    const listed = thumbprintsOf(all.body);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual(
      expect.arrayContaining([...mine.map((c) => c.thumbprint), rootThumbprint(rootCertificates[0])]),
    );
    expect(totalCount(all)).toBe(listed.length);
  });
});

describe('Certificates_PostMany', () => {
  it('stores a CA and the leaf it issued, answering 200 with both', async () => {
    const { ca, leaf } = await makeChain();
    const response = await ctx.admin.post<Certificate[]>(many, { body: [ca.pem, leaf.base64] });
    expect(response.status).toBe(200);
    expect(response.body.map((c) => [c.thumbprint, c.issuer])).toEqual([
      [ca.thumbprint, ca.subject],
      [leaf.thumbprint, ca.subject],
    ]);
  });

  it('answers 400 naming the invalid item, and 409 naming the existing one; storing none', async () => {
    const fresh = await makeCertificate();
    const existing = await makeCertificate();
    await uploaded(existing);
    const invalid = await ctx.admin.post(many, { body: [fresh.base64, 'AAAA'] });
    expectError(invalid, 400, 'invalid_request');
    expect((invalid.body as Json).details).toEqual([expect.objectContaining({ index: 1, error: 'invalid_request' })]);
    const conflict = await ctx.admin.post(many, { body: [fresh.base64, existing.base64] });
    expectError(conflict, 409, 'conflict');
    expect((conflict.body as Json).details).toEqual([expect.objectContaining({ index: 1, id: existing.thumbprint })]);
    expectError(await ctx.admin.get(`${certificates}/${fresh.thumbprint}`), 404, 'not_found');
  });

  it('FromWindowStore copies a CurrentUser certificate into DatabaseStore', async () => {
    const cert = await makeCertificate();
    await uploaded(cert, 'CurrentUser');
    const response = await ctx.admin.post<Certificate[]>(many, {
      body: [cert.thumbprint],
      query: { uploadCertificateMode: 'FromWindowStore' },
    });
    expect(response.status).toBe(200);
    expect(response.body.map((c) => [c.thumbprint, c.storeName])).toEqual([[cert.thumbprint, 'DatabaseStore']]);
    expect((await ctx.admin.get(`${certificates}/${cert.thumbprint}`)).status).toBe(200);
  });

  it('FromWindowStore answers 404 for a thumbprint in neither store, and 400 with a storeName', async () => {
    const missing = 'CD'.repeat(20);
    const query = { uploadCertificateMode: 'FromWindowStore' };
    const response = await ctx.admin.post(many, { body: [missing], query });
    expectError(response, 404, 'not_found');
    expect((response.body as Json).details).toEqual([expect.objectContaining({ index: 0, id: missing })]);
    const root = rootThumbprint(rootCertificates[0]);
    expectError(
      await ctx.admin.post(many, { body: [root], query: { ...query, storeName: 'DatabaseStore' } }),
      400,
      'invalid_request',
    );
  });
});

describe('Certificates_Delete', () => {
  it('deletes a certificate (200), then answers 404', async () => {
    const cert = await makeCertificate();
    await uploaded(cert);
    expect((await ctx.admin.delete(`${certificates}/${cert.thumbprint}`)).status).toBe(200);
    expectError(await ctx.admin.get(`${certificates}/${cert.thumbprint}`), 404, 'not_found');
    expectError(await ctx.admin.delete(`${certificates}/${cert.thumbprint}`), 404, 'not_found');
  });

  it('deletes from CurrentUser, and never from LocalMachine (400)', async () => {
    const cert = await makeCertificate();
    await uploaded(cert, 'CurrentUser');
    const query = { storeName: 'CurrentUser' };
    expect((await ctx.admin.delete(`${certificates}/${cert.thumbprint}`, { query })).status).toBe(200);
    expectError(await ctx.admin.get(`${certificates}/${cert.thumbprint}`, { query }), 404, 'not_found');
    const root = rootThumbprint(rootCertificates[0]);
    expectError(
      await ctx.admin.delete(`${certificates}/${root}`, { query: { storeName: 'LocalMachine' } }),
      400,
      'invalid_request',
    );
  });

  it('answers 409 for a certificate a connection uses, and deletes it with forceDeleteInUse=true', async (test) => {
    const cert = await makeCertificate();
    await uploaded(cert);
    const name = unique('saml');
    const connection = await ctx.admin.post(`${apiBase}/connections`, {
      body: {
        name,
        connectionType: 'Authentication',
        pluginType: 'Saml20',
        configuration: { entityId: `urn:test:${name}` },
        certificates: [cert.thumbprint],
      },
    });
    if (connection.status === 501) {
      test.skip(
        'POST /connections answers 501 (not implemented); services/certificates.test.ts covers the in-use rule',
      );
    }
    expect(connection.status, JSON.stringify(connection.body)).toBe(200);
    expect((await ctx.admin.get<Certificate>(`${certificates}/${cert.thumbprint}`)).body.isInUse).toBe(true);
    const refused = await ctx.admin.delete(`${certificates}/${cert.thumbprint}`);
    expectError(refused, 409, 'conflict');
    expect((refused.body as Json).message).toContain(name);
    const forced = await ctx.admin.delete(`${certificates}/${cert.thumbprint}`, { query: { forceDeleteInUse: true } });
    expect(forced.status).toBe(200);
    expectError(await ctx.admin.get(`${certificates}/${cert.thumbprint}`), 404, 'not_found');
  });
});

describe('Certificates_DeleteMany', () => {
  it('deletes all the listed certificates (200)', async () => {
    const a = await makeCertificate();
    const b = await makeCertificate();
    await uploaded(a);
    await uploaded(b);
    expect((await ctx.admin.delete(many, { body: [a.thumbprint, typed(b.thumbprint)] })).status).toBe(200);
    expectError(await ctx.admin.get(`${certificates}/${a.thumbprint}`), 404, 'not_found');
    expectError(await ctx.admin.get(`${certificates}/${b.thumbprint}`), 404, 'not_found');
  });

  it('answers 404 naming the missing one and deletes none', async () => {
    const kept = await makeCertificate();
    await uploaded(kept);
    const missing = 'EF'.repeat(20);
    const response = await ctx.admin.delete(many, { body: [kept.thumbprint, missing] });
    expectError(response, 404, 'not_found');
    expect((response.body as Json).details).toEqual([expect.objectContaining({ index: 1, id: missing })]);
    expect((await ctx.admin.get(`${certificates}/${kept.thumbprint}`)).status).toBe(200);
  });

  it('answers 400 for an empty list or an item that is not a thumbprint', async () => {
    expectError(await ctx.admin.delete(many, { body: [] }), 400, 'invalid_request');
    expectError(await ctx.admin.delete(many, { body: ['xyz'] }), 400, 'invalid_request');
  });
});
