import { describe, expect, it } from 'vitest';
import { Api, apiBase, createUserWithRole, totalCount, unique, userApi } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, names, serverPerFile } from './helpers/fixtures.js';

const services = `${apiBase}/attributeservices`;
const ctx = serverPerFile();

describe('AttributeServices_PostConnection', () => {
  it('creates an attribute service and answers 200 with it, without its secret settings', async () => {
    const body = {
      name: unique('ldap'),
      description: 'directory',
      accessOrganizationName: 'Root',
      configuration: { url: 'ldap://dir.example.com', bindPassword: 'hunter2' },
    };
    const response = await ctx.admin.post(services, { body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name: body.name,
      description: 'directory',
      accessOrganizationName: 'Root',
      enabled: true,
      configuration: { url: 'ldap://dir.example.com' },
    });
    expect((await ctx.admin.get(`${services}/${body.name}`)).body).toEqual(response.body);
  });

  it('answers 409 for a name that exists in another case', async () => {
    const name = unique('dup');
    await created(ctx.admin, 'attributeservices', { name });
    expectError(await ctx.admin.post(services, { body: { name: name.toUpperCase() } }), 409, 'conflict');
  });

  it('answers 400 for a missing, blank or wrongly typed name', async () => {
    expectError(await ctx.admin.post(services, { body: { description: 'x' } }), 400, 'invalid_request');
    expectError(await ctx.admin.post(services, { body: { name: '   ' } }), 400, 'invalid_request');
    expectError(await ctx.admin.post(services, { body: { name: 5 } }), 400, 'invalid_request');
  });

  it('answers 403 to an Observer and 401 without a token', async () => {
    const observer = unique('observer');
    await createUserWithRole(ctx.admin, observer, 'Observer');
    const api = await userApi(ctx.server.url, observer);
    expectError(await api.post(services, { body: { name: unique('x') } }), 403, 'forbidden');
    expect((await api.get(services)).status).toBe(200);
    expectError(await new Api(ctx.server.url).get(services), 401, 'unauthorized');
  });
});

describe('AttributeServices_GetConnection', () => {
  it('answers 404 for a service that does not exist', async () => {
    expectError(await ctx.admin.get(`${services}/${unique('missing')}`), 404, 'not_found');
  });
});

describe('AttributeServices_PutConnection', () => {
  it('updates the service by name and answers 200 with it', async () => {
    const name = unique('put');
    await created(ctx.admin, 'attributeservices', { name, description: 'before' });
    const response = await ctx.admin.put(services, {
      body: { name: name.toUpperCase(), description: 'after', enabled: false },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name,
      description: 'after',
      accessOrganizationName: null,
      enabled: false,
      configuration: {},
    });
  });

  it('answers 404 for a service that does not exist, and creates nothing', async () => {
    const name = unique('putmissing');
    expectError(await ctx.admin.put(services, { body: { name } }), 404, 'not_found');
    expectError(await ctx.admin.get(`${services}/${name}`), 404, 'not_found');
  });

  it('answers 400 for a malformed body', async () => {
    expectError(await ctx.admin.put(services, { rawBody: '{"name":' }), 400, 'invalid_request');
  });
});

describe('AttributeServices_GetAll', () => {
  it('lists the services by name, or by accessOrganizationName descending', async () => {
    const prefix = unique('list');
    await created(ctx.admin, 'attributeservices', { name: `${prefix}-b`, accessOrganizationName: 'A' });
    await created(ctx.admin, 'attributeservices', { name: `${prefix}-a`, accessOrganizationName: 'B' });
    const all = await ctx.admin.get(services);
    expect(all.status).toBe(200);
    const mine = names(all.body).filter((n) => n.startsWith(prefix));
    expect(mine).toEqual([`${prefix}-a`, `${prefix}-b`]);
    expect(totalCount(all)).toBe((all.body as unknown as unknown[]).length);
    const byOrg = await ctx.admin.get(services, {
      query: { sortBy: 'accessOrganizationName', sortOrder: 'Descending' },
    });
    expect(names(byOrg.body).filter((n) => n.startsWith(prefix))).toEqual([`${prefix}-a`, `${prefix}-b`]);
  });
});

describe('AttributeServices_GetAllFilter', () => {
  it('answers the matches of a SCIM filter, trimmed to the attributes asked for', async () => {
    const name = unique('filter');
    await created(ctx.admin, 'attributeservices', { name, description: 'needle' });
    const response = await ctx.admin.get(`${services}/.filter`, {
      query: { filter: `name sw "${name.slice(0, -1)}" and description eq "NEEDLE"`, attributes: 'description' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ name, description: 'needle' }]);
    expect(totalCount(response)).toBe(1);
  });

  it('answers 400 invalid_filter for a filter that does not parse or names an unknown attribute', async () => {
    expectError(await ctx.admin.get(`${services}/.filter`, { query: { filter: 'name eq' } }), 400, 'invalid_filter');
    expectError(
      await ctx.admin.get(`${services}/.filter`, { query: { filter: 'colour eq "red"' } }),
      400,
      'invalid_filter',
    );
  });
});

describe('AttributeServices_DeleteConnection', () => {
  it('deletes the service, and answers 200 again once it is gone (spec rule 1)', async () => {
    const name = unique('del');
    await created(ctx.admin, 'attributeservices', { name });
    const response = await ctx.admin.delete(`${services}/${name}`);
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    expectError(await ctx.admin.get(`${services}/${name}`), 404, 'not_found');
    expect((await ctx.admin.delete(`${services}/${name}`)).status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).delete(`${services}/x`), 401, 'unauthorized');
  });
});
