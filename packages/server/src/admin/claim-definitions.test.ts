import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/index.js';
import { createApp } from '../server.js';
import { createTestContext, type TestContext } from '../test-support/context.js';

let ctx: TestContext;
let app: ReturnType<typeof createApp>;
let token: string;

async function call(method: string, path: string, body?: unknown) {
  const res = await app.request(`/api/rest/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, total: res.headers.get('x-total-count'), body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  ctx = await createTestContext();
  app = createApp(ctx);
  const [admin] = await ctx.db.select().from(users).where(eq(users.userName, 'admin'));
  token = await ctx.keys.sign(
    { client_id: 'idsvc-cli', 'urn:internal:userid': admin.id, 'urn:identify:rest-api:role': 'Administrator' },
    { issuer: `${ctx.baseUrl()}/runtime/oauth2`, subject: admin.id, audience: 'idsvc-cli', expiresInSeconds: 300 },
  );
  const created = await call('POST', '/claimdefinitions/many', [
    { claimType: 'urn:http:a', friendlyName: 'A', sensitive: true },
    { claimType: 'urn:http:b', friendlyName: 'B' },
    { claimType: 'urn:http:c', friendlyName: 'C', sensitive: true },
  ]);
  expect(created.status).toBe(200);
});

afterAll(async () => {
  await ctx?.close();
});

describe('claim definition routes', () => {
  it('tells a GUID segment (id) from a claim type, also for a claim type with slashes', async () => {
    const byType = await call('GET', '/claimdefinitions/urn:http:a');
    expect(byType.status).toBe(200);
    expect((await call('GET', `/claimdefinitions/${byType.body.id}`)).body).toEqual(byType.body);
    const uri = 'http://schemas.example.org/claims/x';
    expect((await call('POST', '/claimdefinitions', { claimType: uri })).body.variableName).toBe('x');
    expect((await call('GET', `/claimdefinitions/${encodeURIComponent(uri)}`)).body.claimType).toBe(uri);
    expect((await call('GET', '/claimdefinitions/00000000-0000-4000-8000-000000000000')).body).toMatchObject({
      error: 'not_found',
    });
    expect((await call('DELETE', '/claimdefinitions/00000000-0000-4000-8000-000000000000')).status).toBe(200);
  });

  it('searches with a body: filter, attributes, paging; everything without a body', async () => {
    const found = await call('POST', '/claimdefinitions/.search', {
      filter: 'claimType sw "urn:http:" and sensitive eq true',
      attributes: ['friendlyName'],
      sortBy: 'friendlyName',
      sortOrder: 'Descending',
      pageIndex: 1,
      pageSize: 1,
    });
    expect(found).toMatchObject({ status: 200, total: '2' });
    expect(found.body).toEqual([{ id: expect.any(String), claimType: 'urn:http:c', friendlyName: 'C' }]);
    const all = await call('POST', '/claimdefinitions/.search');
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(Number(all.total));
    expect(Number(all.total)).toBeGreaterThan(20);
  });

  it('answers 400 invalid_filter for a filter that does not parse inside a search body', async () => {
    const res = await call('POST', '/claimdefinitions/.search', { filter: 'claimType eq' });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_filter' } });
  });

  it('answers 400 with details when no item of a PostMany was created', async () => {
    const res = await call('POST', '/claimdefinitions/many', [{ claimType: 'urn:http:a' }]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'invalid_request',
      message: 'no claim definition was created',
      details: [{ index: 0, id: 'urn:http:a', error: 'conflict' }],
    });
  });

  it('patches with case-insensitive operation keys', async () => {
    const res = await call('PATCH', '/claimdefinitions/urn:http:b', [
      { Op: 'Replace', Path: 'userEditable', Value: true },
    ]);
    expect(res).toMatchObject({ status: 200, body: { claimType: 'urn:http:b', userEditable: true } });
  });
});

describe('claim set routes', () => {
  it('tells a GUID segment (id) from a name and answers 404 for missing ones on delete', async () => {
    const created = await call('POST', '/claimsets', { name: 'WebSet', claimTypes: ['urn:http:a'] });
    expect(created.status).toBe(200);
    expect((await call('GET', `/claimsets/${created.body.id}`)).body).toEqual(created.body);
    expect((await call('GET', '/claimsets/webset')).body).toEqual(created.body);
    expect((await call('DELETE', '/claimsets/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call('DELETE', '/claimsets/NoSuchSet')).status).toBe(404);
    expect((await call('DELETE', `/claimsets/${created.body.id}`)).status).toBe(200);
  });
});
