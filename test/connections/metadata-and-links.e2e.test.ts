import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeCertificate } from '../../packages/server/src/test-support/certificates.js';
import { apiBase, unique } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { serverPerFile } from '../helpers/fixtures.js';
import {
  type Connection,
  clientCredentials as clientCredentialsAt,
  connections,
  createdConnection as createdConnectionBy,
  idpMetadata,
  oauthInput,
  POST_BINDING,
  samlInput,
  stsMetadata,
} from './support.js';

const ctx = serverPerFile();
const createdConnection = (body: unknown) => createdConnectionBy(ctx.admin, body);
const clientCredentials = (clientId: string, clientSecret: string) =>
  clientCredentialsAt(ctx.server.url, clientId, clientSecret);

describe('Connections_PutConnection', () => {
  it('updates a client fully and keeps its secret when none is sent', async () => {
    const name = unique('put');
    const made = await createdConnection(
      oauthInput(name, { restApiRole: 'Administrator', allowedGrantTypes: ['client_credentials'] }),
    );
    const { clientId, clientSecret } = made.configuration as { clientId: string; clientSecret: string };
    const response = await ctx.admin.put<Connection>(connections, {
      body: oauthInput(
        name,
        { clientId, restApiRole: 'Administrator', allowedGrantTypes: ['client_credentials'], accessTokenLifetime: 600 },
        { scopes: ['openid'] },
      ),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ scopes: ['openid'], configuration: { accessTokenLifetime: 600 } });
    expect(response.body.configuration).not.toHaveProperty('clientSecret');
    const token = await clientCredentials(clientId, clientSecret);
    expect(token.status).toBe(200);
    expect(token.body.expires_in).toBe(600);
  });

  it('answers 404 for a connection that does not exist, and creates nothing', async () => {
    const name = unique('putmissing');
    expectError(await ctx.admin.put(connections, { body: samlInput(name) }), 404, 'not_found');
    expectError(await ctx.admin.get(`${connections}/${name}`), 404, 'not_found');
  });

  it('with metadataXml changes only the configuration and applies the signing certificate', async () => {
    const name = unique('meta');
    const cert = await makeCertificate({ subject: 'CN=e2e metadata idp' });
    await createdConnection(
      samlInput(name, {
        scopes: ['openid'],
        appliedHomeRealmDiscoveryRules: ['example.org'],
        dependencyConnectionNames: ['UsernamePassword'],
      }),
    );
    const xml = idpMetadata('https://idp.example.org/e2e', 'https://idp.example.org/sso', cert);
    const response = await ctx.admin.put<Connection>(connections, {
      body: {
        ...samlInput(name),
        enabled: false,
        scopes: [],
        dependencyConnectionNames: [],
        metadataReference: { metadataXml: xml },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      enabled: true,
      scopes: ['openid'],
      appliedHomeRealmDiscoveryRules: ['example.org'],
      dependencyConnectionNames: ['UsernamePassword'],
      entityId: 'https://idp.example.org/e2e',
      certificates: [cert.thumbprint],
      configuration: {
        entityId: 'https://idp.example.org/e2e',
        singleSignOnServices: [{ binding: POST_BINDING, location: 'https://idp.example.org/sso' }],
        signingCertificates: [cert.thumbprint],
      },
    });
    const certs = await ctx.admin.get(`${connections}/certificate/${name}`);
    expect(certs.body).toEqual([
      expect.objectContaining({
        thumbprint: cert.thumbprint,
        subject: 'CN=e2e metadata idp',
        isInUse: true,
        storeName: 'DatabaseStore',
      }),
    ]);
  });

  it('with metadataFileUri reads a local file and a local HTTP address', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idsvc-e2e-metadata-'));
    const fileCert = await makeCertificate({ subject: 'CN=e2e file sts' });
    const httpCert = await makeCertificate({ subject: 'CN=e2e http sts' });
    const file = join(dir, 'sts.xml');
    writeFileSync(file, stsMetadata('urn:e2e:file-sts', 'https://sts.example/file', fileCert));
    const served = stsMetadata('urn:e2e:http-sts', 'https://sts.example/http', httpCert);
    const server: Server = createServer((req, res) => {
      res.writeHead(req.url === '/federationmetadata.xml' ? 200 : 404, { 'content-type': 'application/xml' });
      res.end(req.url === '/federationmetadata.xml' ? served : '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const name = unique('wsfed');
      const input = { name, connectionType: 'Authentication', pluginType: 'WsFederation' };
      const fromFile = await ctx.admin.post<Connection>(connections, {
        body: { ...input, metadataReference: { metadataFileUri: file } },
      });
      expect(fromFile.status).toBe(200);
      expect(fromFile.body).toMatchObject({
        entityId: 'urn:e2e:file-sts',
        certificates: [fileCert.thumbprint],
        configuration: { singleSignOnUrl: 'https://sts.example/file' },
      });
      const fromHttp = await ctx.admin.put<Connection>(connections, {
        body: { ...input, metadataReference: { metadataFileUri: `${address}/federationmetadata.xml` } },
      });
      expect(fromHttp.status).toBe(200);
      expect(fromHttp.body).toMatchObject({
        entityId: 'urn:e2e:http-sts',
        certificates: [httpCert.thumbprint],
        configuration: { singleSignOnUrl: 'https://sts.example/http', signingCertificates: [httpCert.thumbprint] },
        metadataReference: { metadataFileUri: `${address}/federationmetadata.xml` },
      });
      const missing = await ctx.admin.put(connections, {
        body: { ...input, metadataReference: { metadataFileUri: `${address}/nothing.xml` } },
      });
      expectError(missing, 400, 'invalid_request');
      expect(missing.body.message).toBe(`fetching the metadata from ${address}/nothing.xml answered HTTP 404`);
      expectError(
        await ctx.admin.put(connections, { body: { ...input, metadataReference: { metadataXml: '<not-xml' } } }),
        400,
        'invalid_request',
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Connections_PatchConnection', () => {
  it('patches a SAML 2.0 connection and refuses an OAuth20 one with 400', async () => {
    const name = unique('patch');
    await createdConnection(samlInput(name));
    const response = await ctx.admin.patch<Connection>(`${connections}/${name}`, {
      body: [
        { op: 'replace', path: 'configuration.wantAssertionsSigned', value: false },
        { Op: 'Replace', Path: 'accessOrganizationName', Value: 'Root' },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      accessOrganizationName: 'Root',
      configuration: { wantAssertionsSigned: false },
    });
    const client = await createdConnection(oauthInput(unique('patchoauth')));
    expectError(
      await ctx.admin.patch(`${connections}/${client.name}`, {
        body: [{ op: 'replace', path: 'enabled', value: false }],
      }),
      400,
      'invalid_request',
    );
    expectError(
      await ctx.admin.patch(`${connections}/${unique('missing')}`, {
        body: [{ op: 'replace', path: 'enabled', value: false }],
      }),
      404,
      'not_found',
    );
  });
});

describe('Connections_PutCertificates and Connections_GetCertificates', () => {
  it('replaces the applied certificates of a SAML 2.0 connection and reads them back', async () => {
    const cert = await makeCertificate({ subject: 'CN=e2e applied' });
    const upload = await ctx.admin.post(`${apiBase}/certificates`, { body: cert.base64 });
    expect(upload.status).toBe(200);
    const name = unique('certs');
    await createdConnection(samlInput(name));
    const put = await ctx.admin.put(`${connections}/certificate`, {
      body: { connectionName: name, certificates: [cert.thumbprint] },
    });
    expect(put.status).toBe(200);
    const read = await ctx.admin.get(`${connections}/certificate/${name}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual([
      expect.objectContaining({ thumbprint: cert.thumbprint, subject: 'CN=e2e applied', isInUse: true }),
    ]);
    expect(
      (await ctx.admin.put(`${connections}/certificate`, { body: { connectionName: name, certificates: [] } })).status,
    ).toBe(200);
    expect((await ctx.admin.get(`${connections}/certificate/${name}`)).body).toEqual([]);
  });

  it('answers 400 for a connection without certificates and 404 for a missing connection or certificate', async () => {
    const name = unique('certs');
    await createdConnection(samlInput(name));
    const body = (connectionName: string, certificates: string[]) => ({ body: { connectionName, certificates } });
    expectError(await ctx.admin.put(`${connections}/certificate`, body('idsvc-cli', [])), 400, 'invalid_request');
    expectError(await ctx.admin.put(`${connections}/certificate`, body(name, ['F'.repeat(40)])), 404, 'not_found');
    expectError(await ctx.admin.put(`${connections}/certificate`, body(unique('missing'), [])), 404, 'not_found');
    expectError(await ctx.admin.get(`${connections}/certificate/${unique('missing')}`), 404, 'not_found');
  });
});

describe('claim transformations of a connection', () => {
  const name = unique('tx');
  let transformationsWork = false;
  const transformationNames = [unique('DropEmail'), unique('AddRole')];

  beforeAll(async () => {
    await createdConnection(samlInput(name));
    for (const transformation of transformationNames) {
      const response = await ctx.admin.post(`${apiBase}/transformations`, {
        body: { name: transformation, type: 'ExcludedPassThroughClaims' },
      });
      transformationsWork = response.status === 200;
    }
  });

  it('Connections_PutClaimTransformation and Connections_DeleteClaimTransformation apply and remove one', async (test) => {
    if (!transformationsWork) test.skip();
    const [first] = transformationNames;
    const put = await ctx.admin.put<Connection>(`${connections}/transformation`, {
      body: { connectionName: name, claimTransformationName: first },
    });
    expect(put.status).toBe(200);
    expect(put.body.claimTransformations).toEqual([first]);
    const removed = await ctx.admin.delete<Connection>(`${connections}/transformation`, {
      body: { connectionName: name, claimTransformationName: first },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.claimTransformations).toEqual([]);
  });

  it('Connections_PutClaimTransformations and Connections_DeleteClaimTransformations apply and remove several', async (test) => {
    if (!transformationsWork) test.skip();
    const put = await ctx.admin.put<Connection>(`${connections}/transformations`, {
      body: { connectionName: name, claimTransformationNames: transformationNames },
    });
    expect(put.status).toBe(200);
    expect(put.body.claimTransformations).toEqual(transformationNames);
    const removed = await ctx.admin.delete<Connection>(`${connections}/transformations`, {
      body: { connectionName: name, claimTransformationNames: transformationNames },
    });
    expect(removed.body.claimTransformations).toEqual([]);
  });

  it('answers 400 for an empty name and 404 for a missing connection or transformation', async () => {
    const one = `${connections}/transformation`;
    const several = `${connections}/transformations`;
    expectError(
      await ctx.admin.put(one, { body: { connectionName: name, claimTransformationName: '' } }),
      400,
      'invalid_request',
    );
    expectError(
      await ctx.admin.put(several, { body: { connectionName: name, claimTransformationNames: [] } }),
      400,
      'invalid_request',
    );
    expectError(
      await ctx.admin.put(one, { body: { connectionName: name, claimTransformationName: unique('missing') } }),
      404,
      'not_found',
    );
    expectError(
      await ctx.admin.delete(several, { body: { connectionName: unique('missing'), claimTransformationNames: ['x'] } }),
      404,
      'not_found',
    );
  });
});
