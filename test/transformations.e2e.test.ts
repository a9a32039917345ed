import { describe, expect, it } from 'vitest';
import { Api, apiBase, type Json, totalCount, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, names, serverPerFile } from './helpers/fixtures.js';

const transformations = `${apiBase}/transformations`;
const serviceOptions = `${transformations}/excludeServiceClaimOptions`;
const passThroughOptions = `${transformations}/excludePassthroughClaimOptions`;
const ctx = serverPerFile();

const script = 'function transform(claims, context) {\n  return claims.filter((c) => c.type !== "email");\n}';

const excludedService = (name: string, extra: Json = {}) => ({ name, type: 'ExcludedServiceClaims', ...extra });
const excludedPassThrough = (name: string, extra: Json = {}) => ({ name, type: 'ExcludedPassThroughClaims', ...extra });

describe('Transformations_PostClaimTransformation', () => {
  it('creates a transformation and answers 200 with it', async () => {
    const name = unique('svc');
    const body = excludedService(name, {
      claimTypes: ['EMAIL'],
      cultureCode: 'nl-NL',
      accessOrganizationName: 'Root',
      conditionNotApplyToUnregisteredUsers: true,
    });
    const response = await ctx.admin.post(transformations, { body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name,
      type: 'ExcludedServiceClaims',
      accessOrganizationName: 'Root',
      conditionNotApplyToRegisteredUsers: false,
      conditionNotApplyToUnregisteredUsers: true,
      conditionExpression: null,
      cultureCode: 'nl-NL',
      executeBeforeLoadingClaimsFromLocalStore: false,
      claimTypes: ['email'],
      script: null,
    });
    expect((await ctx.admin.get(`${transformations}/${name}`)).body).toEqual(response.body);
  });

  it('creates a Script transformation whose script compiles', async () => {
    const name = unique('script');
    const response = await ctx.admin.post(transformations, { body: { name, type: 'Script', script } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name, type: 'Script', script, claimTypes: [] });
  });

  it("answers 400 with the compiler's message and line for a script that does not compile", async () => {
    const body = { name: unique('bad'), type: 'Script', script: 'function transform(c) {\n  return c;\n  }\n}' };
    const response = await ctx.admin.post(transformations, { body });
    expectError(response, 400, 'invalid_request');
    expect(response.body.message).toBe("script: SyntaxError: unexpected token in expression: '}' at line 4");
  });

  it('answers 400 for an unknown type, a missing name or a claim type without a definition', async () => {
    expectError(
      await ctx.admin.post(transformations, { body: { name: unique('t'), type: 'Other' } }),
      400,
      'invalid_request',
    );
    expectError(await ctx.admin.post(transformations, { body: { type: 'Script', script } }), 400, 'invalid_request');
    const unknownClaim = excludedService(unique('t'), { claimTypes: ['urn:e2e:none'] });
    expectError(await ctx.admin.post(transformations, { body: unknownClaim }), 400, 'invalid_request');
  });

  it('answers 409 for a name that exists in another case', async () => {
    const name = unique('dup');
    await created(ctx.admin, 'transformations', excludedService(name));
    expectError(await ctx.admin.post(transformations, { body: excludedService(name.toUpperCase()) }), 409, 'conflict');
  });

  it('answers 401 without a token', async () => {
    const anonymous = new Api(ctx.server.url);
    expectError(await anonymous.post(transformations, { body: excludedService(unique('t')) }), 401, 'unauthorized');
  });
});

describe('Transformations_PutClaimTransformation', () => {
  it('updates the fields given, keeps the others and answers 200', async () => {
    const name = unique('put');
    await created(ctx.admin, 'transformations', excludedService(name, { claimTypes: ['email'] }));
    const response = await ctx.admin.put(transformations, {
      body: excludedService(name, { conditionExpression: 'true', executeBeforeLoadingClaimsFromLocalStore: true }),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name,
      claimTypes: ['email'],
      conditionExpression: 'true',
      executeBeforeLoadingClaimsFromLocalStore: true,
    });
  });

  it('answers 404 for a transformation that does not exist, and creates nothing', async () => {
    const name = unique('putmissing');
    expectError(await ctx.admin.put(transformations, { body: excludedService(name) }), 404, 'not_found');
    expectError(await ctx.admin.get(`${transformations}/${name}`), 404, 'not_found');
  });

  it('answers 400 for an invalid culture code', async () => {
    const name = unique('putbad');
    await created(ctx.admin, 'transformations', excludedService(name));
    const response = await ctx.admin.put(transformations, {
      body: excludedService(name, { cultureCode: 'not a code' }),
    });
    expectError(response, 400, 'invalid_request');
  });
});

describe('Transformations_GetAllFilter', () => {
  it('filters, sorts and pages, with the total count', async () => {
    const prefix = unique('list');
    for (const suffix of ['b', 'a', 'c']) {
      await created(ctx.admin, 'transformations', excludedPassThrough(`${prefix}-${suffix}`));
    }
    const response = await ctx.admin.get(`${transformations}/.filter`, {
      query: {
        filter: `name sw "${prefix}" and type eq "ExcludedPassThroughClaims"`,
        sortBy: 'name',
        sortOrder: 'Descending',
        pageSize: 2,
      },
    });
    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual([`${prefix}-c`, `${prefix}-b`]);
    expect(totalCount(response)).toBe(3);
  });

  it('returns only the attributes asked for, with the name', async () => {
    const name = unique('attrs');
    await created(ctx.admin, 'transformations', excludedService(name));
    const response = await ctx.admin.get(`${transformations}/.filter`, {
      query: { filter: `name eq "${name}"`, attributes: 'type' },
    });
    expect(response.body).toEqual([{ name, type: 'ExcludedServiceClaims' }]);
  });

  it('answers 400 invalid_filter for a filter that does not parse or names an unknown attribute', async () => {
    expectError(
      await ctx.admin.get(`${transformations}/.filter`, { query: { filter: 'name eq' } }),
      400,
      'invalid_filter',
    );
    expectError(
      await ctx.admin.get(`${transformations}/.filter`, { query: { filter: 'color eq "red"' } }),
      400,
      'invalid_filter',
    );
  });
});

describe('Transformations_GetClaimTransformation', () => {
  it('answers 200 with an Excluded… transformation', async () => {
    const name = unique('get');
    await created(ctx.admin, 'transformations', excludedPassThrough(name));
    const response = await ctx.admin.get(`${transformations}/${name.toUpperCase()}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name, type: 'ExcludedPassThroughClaims' });
  });

  it('answers 400 for a Script transformation, as the spec has it', async () => {
    const name = unique('getscript');
    await created(ctx.admin, 'transformations', { name, type: 'Script', script });
    const response = await ctx.admin.get(`${transformations}/${name}`);
    expectError(response, 400, 'invalid_request');
    expect(response.body.message).toMatch(/is of type Script; this operation reads only transformations of type/);
  });

  it('answers 404 for a transformation that does not exist', async () => {
    expectError(await ctx.admin.get(`${transformations}/${unique('missing')}`), 404, 'not_found');
  });
});

describe('Transformations_DeleteClaimTransformation', () => {
  it('deletes the transformation and answers 404 once it is gone', async () => {
    const name = unique('del');
    await created(ctx.admin, 'transformations', excludedService(name));
    expect((await ctx.admin.delete(`${transformations}/${name}`)).status).toBe(200);
    expectError(await ctx.admin.get(`${transformations}/${name}`), 404, 'not_found');
    expectError(await ctx.admin.delete(`${transformations}/${name}`), 404, 'not_found');
  });

  it('answers 409 while a connection applies it, and keeps it', async () => {
    const name = unique('inuse');
    await created(ctx.admin, 'transformations', excludedPassThrough(name));
    const connection = unique('conn');
    await created(ctx.admin, 'connections', {
      name: connection,
      connectionType: 'Authentication',
      pluginType: 'Saml20',
      configuration: { entityId: `urn:e2e:${connection}` },
      claimTransformations: [name],
    });
    const response = await ctx.admin.delete(`${transformations}/${name}`);
    expectError(response, 409, 'conflict');
    expect(response.body.message).toBe(
      `the claim transformation ${name} is used by the connection(s) ${connection}; it is not deleted`,
    );
    expect((await ctx.admin.get(`${transformations}/${name}`)).status).toBe(200);
  });

  it('answers 400 for a blank name', async () => {
    expectError(await ctx.admin.delete(`${transformations}/%20`), 400, 'invalid_request');
  });
});

describe('Transformations_PutExcludeServiceTransformationOptions', () => {
  it('adds the claim type and answers 200 with the transformation', async () => {
    const name = unique('opt');
    await created(ctx.admin, 'transformations', excludedService(name));
    const response = await ctx.admin.put(serviceOptions, {
      body: { transformationName: name, claimType: 'Given_Name' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name, claimTypes: ['given_name'] });
  });

  it('answers 404 for a transformation of the other kind, a missing one, or a claim type without a definition', async () => {
    const name = unique('optkind');
    await created(ctx.admin, 'transformations', excludedPassThrough(name));
    const put = (transformationName: string, claimType: string) =>
      ctx.admin.put(serviceOptions, { body: { transformationName, claimType } });
    expectError(await put(name, 'email'), 404, 'not_found');
    expectError(await put(unique('missing'), 'email'), 404, 'not_found');
    const own = unique('optown');
    await created(ctx.admin, 'transformations', excludedService(own));
    expectError(await put(own, 'urn:e2e:none'), 404, 'not_found');
  });

  it('answers 400 for a missing or empty name or claim type', async () => {
    expectError(await ctx.admin.put(serviceOptions, { body: { claimType: 'email' } }), 400, 'invalid_request');
    expectError(
      await ctx.admin.put(serviceOptions, { body: { transformationName: 'x', claimType: '' } }),
      400,
      'invalid_request',
    );
  });
});

describe('Transformations_DeleteExcludeServiceTransformationOptions', () => {
  it('removes the claim type and answers 200 with the transformation; 200 also when nothing matches', async () => {
    const name = unique('rm');
    await created(ctx.admin, 'transformations', excludedService(name, { claimTypes: ['email', 'given_name'] }));
    const response = await ctx.admin.delete(serviceOptions, { body: { transformationName: name, claimType: 'EMAIL' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name, claimTypes: ['given_name'] });
    const missing = await ctx.admin.delete(serviceOptions, {
      body: { transformationName: unique('missing'), claimType: 'email' },
    });
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 200, body: '' });
  });

  it('answers 400 for an empty claim type', async () => {
    const response = await ctx.admin.delete(serviceOptions, { body: { transformationName: 'x', claimType: '' } });
    expectError(response, 400, 'invalid_request');
  });
});

describe('Transformations_PutExcludePassThroughTransformationOptions', () => {
  it('adds the claim type and answers 200 with the transformation', async () => {
    const name = unique('pass');
    await created(ctx.admin, 'transformations', excludedPassThrough(name, { claimTypes: ['email'] }));
    const response = await ctx.admin.put(passThroughOptions, { body: { transformationName: name, claimType: 'name' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name, claimTypes: ['email', 'name'] });
  });

  it('answers 404 for an ExcludedServiceClaims transformation', async () => {
    const name = unique('passkind');
    await created(ctx.admin, 'transformations', excludedService(name));
    const response = await ctx.admin.put(passThroughOptions, {
      body: { transformationName: name, claimType: 'email' },
    });
    expectError(response, 404, 'not_found');
  });
});

describe('Transformations_DeleteExcludePassthroughTransformationOptions', () => {
  it('removes the claim type; leaves a transformation of the other kind as it is; answers 200', async () => {
    const name = unique('passrm');
    await created(ctx.admin, 'transformations', excludedPassThrough(name, { claimTypes: ['email'] }));
    const response = await ctx.admin.delete(passThroughOptions, {
      body: { transformationName: name, claimType: 'email' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name, claimTypes: [] });
    const other = unique('passother');
    await created(ctx.admin, 'transformations', excludedService(other, { claimTypes: ['email'] }));
    const unchanged = await ctx.admin.delete(passThroughOptions, {
      body: { transformationName: other, claimType: 'email' },
    });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toMatchObject({ name: other, claimTypes: ['email'] });
  });

  it('answers 400 for a missing transformation name', async () => {
    expectError(await ctx.admin.delete(passThroughOptions, { body: { claimType: 'email' } }), 400, 'invalid_request');
  });
});

describe('Transformations_PostScriptTesting', () => {
  it('answers 200 true for a script that compiles, without running it', async () => {
    const response = await ctx.admin.post(`${transformations}/testscript`, {
      body: { script: 'function transform(claims) { while (true) {} }' },
    });
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: true });
  });

  it("answers 400 with the compiler's message and line for a script that does not compile", async () => {
    const response = await ctx.admin.post(`${transformations}/testscript`, {
      body: { script: 'function transform(claims) {\n  if (claims.length > 0) {\n  }}\n}' },
    });
    expectError(response, 400, 'invalid_request');
    expect(response.body.message).toBe("SyntaxError: unexpected token in expression: '}' at line 4");
    expect(response.body.details).toEqual([
      { field: 'script', message: "SyntaxError: unexpected token in expression: '}'", line: 4 },
    ]);
  });

  it('answers 400 for an empty script', async () => {
    expectError(
      await ctx.admin.post(`${transformations}/testscript`, { body: { script: '' } }),
      400,
      'invalid_request',
    );
  });
});
