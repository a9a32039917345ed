import { beforeAll, describe, expect, it } from 'vitest';
import { Api, apiBase, totalCount, unique } from '../helpers/api.js';
import { expectError } from '../helpers/expect-error.js';
import { names, serverPerFile } from '../helpers/fixtures.js';
import {
  type Connection,
  clientCredentials as clientCredentialsAt,
  connections,
  createdConnection as createdConnectionBy,
  oauthInput,
  samlInput,
} from './support.js';

const ctx = serverPerFile();
const createdConnection = (body: unknown) => createdConnectionBy(ctx.admin, body);
const clientCredentials = (clientId: string, clientSecret: string) =>
  clientCredentialsAt(ctx.server.url, clientId, clientSecret);

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
