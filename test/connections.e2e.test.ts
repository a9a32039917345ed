import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeCertificate, type TestCertificate } from '../packages/server/src/test-support/certificates.js';
import { Api, apiBase, type Json, totalCount, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, names, serverPerFile } from './helpers/fixtures.js';

const connections = `${apiBase}/connections`;
const ctx = serverPerFile();

type Connection = Json & {
  id: string;
  name: string;
  entityId: string | null;
  configuration: Json;
  certificates: string[];
  claimTransformations: string[];
};

const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** SAML 2.0 identity provider metadata with one signing certificate. */
const idpMetadata = (entityId: string, sso: string, cert: TestCertificate) => `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
        <ds:X509Data><ds:X509Certificate>${cert.base64.replace(/(.{64})/g, '$1\n')}</ds:X509Certificate></ds:X509Data>
      </ds:KeyInfo>
    </md:KeyDescriptor>
    <md:SingleSignOnService Binding="${POST_BINDING}" Location="${sso}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

/** WS-Federation security token service metadata with one signing certificate. */
const stsMetadata = (entityId: string, address: string, cert: TestCertificate) => `<?xml version="1.0"?>
<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <RoleDescriptor xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
      xmlns:fed="http://docs.oasis-open.org/wsfed/federation/200706" xsi:type="fed:SecurityTokenServiceType"
      protocolSupportEnumeration="http://docs.oasis-open.org/wsfed/federation/200706">
    <KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data>
      <X509Certificate>${cert.base64}</X509Certificate></X509Data></KeyInfo></KeyDescriptor>
    <fed:PassiveRequestorEndpoint><wsa:EndpointReference xmlns:wsa="http://www.w3.org/2005/08/addressing">
      <wsa:Address>${address}</wsa:Address></wsa:EndpointReference></fed:PassiveRequestorEndpoint>
  </RoleDescriptor>
</EntityDescriptor>`;

const samlInput = (name: string, extra: Json = {}) => ({
  name,
  connectionType: 'Authentication',
  pluginType: 'Saml20',
  configuration: { entityId: `urn:e2e:${name}` },
  ...extra,
});

const oauthInput = (name: string, configuration: Json = {}, extra: Json = {}) => ({
  name,
  connectionType: 'Protocol',
  pluginType: 'OAuth20',
  configuration,
  ...extra,
});

async function createdConnection(body: unknown): Promise<Connection> {
  return (await created(ctx.admin, 'connections', body)) as Connection;
}

/** POSTs a client_credentials grant with the client's id and secret in the form. */
async function clientCredentials(clientId: string, clientSecret: string) {
  const response = await fetch(new URL('/runtime/oauth2/token.idp', ctx.server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe('Connections_PostConnection', () => {
  it('creates an OAuth20 client with a secret shown once that the token endpoint accepts', async () => {
    const name = unique('pipeline');
    const response = await ctx.admin.post<Connection>(connections, {
      body: oauthInput(name, { restApiRole: 'Administrator', allowedGrantTypes: ['client_credentials'] }),
    });
    expect(response.status).toBe(200);
    const { clientId, clientSecret } = response.body.configuration as { clientId: string; clientSecret: string };
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.body).toMatchObject({ name, connectionType: 'Protocol', pluginType: 'OAuth20', enabled: true });

    const readBack = await ctx.admin.get<Connection>(`${connections}/${name}`);
    expect(readBack.status).toBe(200);
    expect(readBack.body.configuration).toMatchObject({ clientId, restApiRole: 'Administrator' });
    expect(readBack.body.configuration).not.toHaveProperty('clientSecret');
    const listed = await ctx.admin.get<Connection[]>(`${connections}/.filter`, {
      query: { filter: `name eq "${name}"` },
    });
    expect(JSON.stringify(listed.body)).not.toContain(clientSecret);

    const token = await clientCredentials(clientId, clientSecret);
    expect(token.status).toBe(200);
    const groups = await new Api(ctx.server.url, token.body.access_token as string).get(`${apiBase}/groups`);
    expect(groups.status).toBe(200);
    expect((await clientCredentials(clientId, `${clientSecret}x`)).body.error).toBe('invalid_client');
  });

  it('accepts an HS384 client with a 48-byte secret and refuses a 40-byte one', async () => {
    const ok = await ctx.admin.post<Connection>(connections, {
      body: oauthInput(unique('hs384'), { signingAlgorithm: 'HS384', clientSecret: 's'.repeat(48) }),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.configuration).not.toHaveProperty('clientSecret');
    const refused = await ctx.admin.post(connections, {
      body: oauthInput(unique('hs384'), { signingAlgorithm: 'HS384', clientSecret: 's'.repeat(40) }),
    });
    expectError(refused, 400, 'invalid_request');
    expect(refused.body.details).toEqual([
      { field: 'configuration.clientSecret', message: 'HS384 needs a client secret of 48 bytes, not 40' },
    ]);
  });

  it('answers 409 for a name that exists in another case or a taken client id', async () => {
    const name = unique('dup');
    await createdConnection(oauthInput(name, { clientId: `${name}-id` }));
    expectError(await ctx.admin.post(connections, { body: oauthInput(name.toUpperCase()) }), 409, 'conflict');
    expectError(
      await ctx.admin.post(connections, { body: oauthInput(unique('other'), { clientId: `${name}-id` }) }),
      409,
      'conflict',
    );
  });

  it('answers 400 per field for an invalid configuration and for a wrong connectionType', async () => {
    const response = await ctx.admin.post(connections, {
      body: oauthInput(unique('bad'), { accessTokenLifetime: 0, grantTypes: ['password'] }),
    });
    expectError(response, 400, 'invalid_request');
    expect((response.body.details as { field: string }[]).map((d) => d.field).sort()).toEqual([
      'configuration.accessTokenLifetime',
      'configuration.grantTypes',
    ]);
    const wrongType = await ctx.admin.post(connections, {
      body: { ...oauthInput(unique('bad')), connectionType: 'SecondFactor' },
    });
    expectError(wrongType, 400, 'invalid_request');
  });

  it('answers 404 for a dependency, claim set or certificate that does not exist', async () => {
    const input = samlInput(unique('refs'));
    for (const extra of [
      { dependencyConnectionNames: ['no-such-connection'] },
      { claimSets: ['no-such-claim-set'] },
      { certificates: ['0'.repeat(40)] },
    ]) {
      expectError(await ctx.admin.post(connections, { body: { ...input, ...extra } }), 404, 'not_found');
    }
    expectError(await ctx.admin.get(`${connections}/${input.name}`), 404, 'not_found');
  });

  it('answers 401 without a token', async () => {
    expectError(
      await new Api(ctx.server.url).post(connections, { body: samlInput(unique('anon')) }),
      401,
      'unauthorized',
    );
  });
});

describe('Connections_GetConnection', () => {
  it('answers the seeded UsernamePassword connection and 404 for a missing one', async () => {
    const response = await ctx.admin.get<Connection>(`${connections}/usernamepassword`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'UsernamePassword',
      connectionType: 'Authentication',
      pluginType: 'UsernamePassword',
      configuration: { maximumFailedAttempts: 10 },
    });
    expectError(await ctx.admin.get(`${connections}/${unique('missing')}`), 404, 'not_found');
  });
});

describe('Connections_GetAll and Connections_GetAllFilter', () => {
  const prefix = unique('list');
  beforeAll(async () => {
    for (const [suffix, enabled] of [
      ['b', true],
      ['a', false],
      ['c', true],
    ] as const) {
      await createdConnection(samlInput(`${prefix}-${suffix}`, { enabled }));
    }
  });

  it('lists every connection sorted by name with X-Total-Count, and pages', async () => {
    const all = await ctx.admin.get<Connection[]>(connections);
    expect(all.status).toBe(200);
    const allNames = names(all.body);
    expect(allNames).toContain('UsernamePassword');
    expect(allNames).toContain('idsvc-cli');
    expect(allNames).toEqual([...allNames].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase())));
    expect(totalCount(all)).toBe(allNames.length);
    const page = await ctx.admin.get(connections, { query: { pageIndex: 2, pageSize: 1 } });
    expect(names(page.body)).toEqual([allNames[1]]);
  });

  it('filters and sorts in SQL, and answers 400 invalid_filter for a bad filter', async () => {
    const response = await ctx.admin.get<Connection[]>(`${connections}/.filter`, {
      query: { filter: `name sw "${prefix}" and pluginType eq "saml20"`, sortBy: 'enabled', sortOrder: 'Descending' },
    });
    expect(response.status).toBe(200);
    expect(names(response.body).slice(2)).toEqual([`${prefix}-a`]);
    expect(totalCount(response)).toBe(3);
    const disabled = await ctx.admin.get(`${connections}/.filter`, {
      query: { filter: `name sw "${prefix}" and enabled eq false`, attributes: 'enabled' },
    });
    expect(disabled.body).toEqual([{ id: expect.any(String), name: `${prefix}-a`, enabled: false }]);
    const byClient = await ctx.admin.get(`${connections}/.filter`, { query: { filter: 'clientId eq "idsvc-cli"' } });
    expect(names(byClient.body)).toEqual(['idsvc-cli']);
    expectError(await ctx.admin.get(`${connections}/.filter`, { query: { filter: 'name eq' } }), 400, 'invalid_filter');
    expectError(
      await ctx.admin.get(`${connections}/.filter`, { query: { filter: 'colour eq "x"' } }),
      400,
      'invalid_filter',
    );
  });
});

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

describe('Connections_DeleteConnection', () => {
  it('deletes a connection, then answers 404 for it', async () => {
    const name = unique('del');
    await createdConnection(samlInput(name));
    expect((await ctx.admin.delete(`${connections}/${name}`)).status).toBe(200);
    expectError(await ctx.admin.get(`${connections}/${name}`), 404, 'not_found');
    expectError(await ctx.admin.delete(`${connections}/${name}`), 404, 'not_found');
  });

  it('answers 409 for a built-in connection and for one another depends on', async () => {
    expectError(await ctx.admin.delete(`${connections}/UsernamePassword`), 409, 'conflict');
    expectError(await ctx.admin.delete(`${connections}/idsvc-cli`), 409, 'conflict');
    const base = unique('base');
    await createdConnection(samlInput(base));
    await createdConnection(oauthInput(unique('dependent'), {}, { dependencyConnectionNames: [base] }));
    expectError(await ctx.admin.delete(`${connections}/${base}`), 409, 'conflict');
  });
});

describe('Connections_ResetConsent', () => {
  it('answers 200 for an existing connection and 404 for a missing one', async () => {
    expect((await ctx.admin.put(`${connections}/resetconsent/idsvc-cli`)).status).toBe(200);
    expectError(await ctx.admin.put(`${connections}/resetconsent/${unique('missing')}`), 404, 'not_found');
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
