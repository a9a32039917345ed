import { ClaimSets_GetAll } from '@idsvc/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRequest } from '../conventions/list.js';
import { auditRecords, claimSets, connections } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { claimSetService } from './claim-sets.js';

const by = { actor: 'tester', requestId: 'req-cs' };
const missingId = '00000000-0000-4000-8000-000000000000';

let ctx: TestContext;
let service: ReturnType<typeof claimSetService>;

const auditOf = (entityKey: string) =>
  ctx.db
    .select({ operation: auditRecords.operation, changes: auditRecords.changes })
    .from(auditRecords)
    .where(and(eq(auditRecords.entityType, 'claimSet'), eq(auditRecords.entityKey, entityKey)))
    .orderBy(auditRecords.id);

const useInConnection = (name: string, sets: string[]) =>
  ctx.db.insert(connections).values({ name, connectionType: 'Protocol', pluginType: 'OAuth20', claimSets: sets });

beforeAll(async () => {
  ctx = await createTestContext();
  service = claimSetService(ctx.db);
});

afterAll(async () => {
  await ctx?.close();
});

describe('create', () => {
  it('stores the claim types as their definitions spell them, once each, with an audit record', async () => {
    const created = await service.create(
      { name: 'Profile', description: 'basic', claimTypes: ['EMAIL', 'given_name', 'email'] },
      by,
    );
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Profile',
      description: 'basic',
      claimTypes: ['email', 'given_name'],
    });
    expect(await auditOf('Profile')).toEqual([
      { operation: 'create', changes: { name: 'Profile', description: 'basic', claimTypes: ['email', 'given_name'] } },
    ]);
  });

  it('answers 409 for a name that exists in another case', async () => {
    await expect(service.create({ name: 'PROFILE' }, by)).rejects.toMatchObject({
      code: 'conflict',
      status: 409,
      message: 'a claim set named Profile exists',
    });
  });

  it('answers 400 naming the claim types without a definition, and stores nothing', async () => {
    await expect(
      service.create({ name: 'Broken', claimTypes: ['email', 'urn:none:a', 'urn:none:b'] }, by),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      status: 400,
      message: 'claimTypes: no claim definition of type urn:none:a, urn:none:b',
      details: [
        { field: 'claimTypes', value: 'urn:none:a', message: 'no claim definition of this type' },
        { field: 'claimTypes', value: 'urn:none:b', message: 'no claim definition of this type' },
      ],
    });
    expect(await ctx.db.select().from(claimSets).where(eq(claimSets.name, 'Broken'))).toEqual([]);
  });

  it('answers 400 for a blank name', async () => {
    await expect(service.create({ name: '  ' }, by)).rejects.toMatchObject({ status: 400 });
  });
});

describe('get and getById', () => {
  it('finds a claim set by name in any case and by id', async () => {
    const found = await service.get('profile');
    expect(found.name).toBe('Profile');
    expect(await service.getById(found.id)).toEqual(found);
  });

  it('answers 404 for a missing name, a missing id and an id that is not a GUID', async () => {
    await expect(service.get('Nothing')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(service.getById(missingId)).rejects.toMatchObject({ status: 404 });
    await expect(service.getById('Profile')).rejects.toMatchObject({ status: 404 });
  });
});

describe('update', () => {
  it('finds the set by name without an id and replaces its fields', async () => {
    const updated = await service.update({ name: 'profile', claimTypes: ['locale'] }, by);
    expect(updated).toMatchObject({ name: 'Profile', description: null, claimTypes: ['locale'] });
    expect((await auditOf('Profile')).map((r) => r.operation)).toEqual(['create', 'update']);
  });

  it('renames the set found by id', async () => {
    const created = await service.create({ name: 'Old' }, by);
    const renamed = await service.update({ id: created.id, name: 'New', claimTypes: ['name'] }, by);
    expect(renamed).toEqual({ id: created.id, name: 'New', description: null, claimTypes: ['name'] });
    await expect(service.get('Old')).rejects.toMatchObject({ status: 404 });
  });

  it('answers 404 for a missing name or id, 400 for unknown claim types, 409 for a taken name', async () => {
    await expect(service.update({ name: 'Nothing' }, by)).rejects.toMatchObject({ status: 404 });
    await expect(service.update({ id: missingId, name: 'New' }, by)).rejects.toMatchObject({ status: 404 });
    await expect(service.update({ name: 'New', claimTypes: ['urn:none'] }, by)).rejects.toMatchObject({ status: 400 });
    const newSet = await service.get('New');
    await expect(service.update({ id: newSet.id, name: 'profile' }, by)).rejects.toMatchObject({
      status: 409,
      message: 'a claim set named Profile exists',
    });
  });

  it('refuses with 409 to rename a set connections use, but updates it under its name', async () => {
    const used = await service.create({ name: 'Used' }, by);
    await useInConnection('portal', ['used']);
    await expect(service.update({ id: used.id, name: 'Renamed' }, by)).rejects.toMatchObject({
      status: 409,
      message: 'the claim set Used is used by the connection(s) portal; it is not renamed',
    });
    expect((await service.update({ id: used.id, name: 'USED', claimTypes: ['email'] }, by)).name).toBe('USED');
  });
});

describe('delete', () => {
  it('deletes by name and by id, with an audit record', async () => {
    const a = await service.create({ name: 'DelA' }, by);
    const b = await service.create({ name: 'DelB' }, by);
    await service.delete('dela', by);
    await service.deleteById(b.id, by);
    await expect(service.getById(a.id)).rejects.toMatchObject({ status: 404 });
    await expect(service.get('DelB')).rejects.toMatchObject({ status: 404 });
    expect((await auditOf('DelA')).map((r) => r.operation)).toEqual(['create', 'delete']);
  });

  it('answers 404 for a missing name or id', async () => {
    await expect(service.delete('Nothing', by)).rejects.toMatchObject({ status: 404 });
    await expect(service.deleteById(missingId, by)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses with 409 a set that connections name', async () => {
    await useInConnection('shop', ['Other', 'used']);
    await expect(service.delete('Used', by)).rejects.toMatchObject({
      status: 409,
      message: 'the claim set USED is used by the connection(s) portal, shop; it is not deleted',
    });
    expect((await service.get('used')).name).toBe('USED');
  });
});

describe('list', () => {
  it('sorts by name (default) or id, descending on request, and pages', async () => {
    const names = (query: Record<string, string>) =>
      service
        .list(listRequest(ClaimSets_GetAll.list, query))
        .then((l) => ({ names: l.items.map((i) => i.name), total: l.total }));
    expect(await names({})).toEqual({ names: ['New', 'Profile', 'USED'], total: 3 });
    expect(await names({ sortOrder: 'Descending' })).toEqual({ names: ['USED', 'Profile', 'New'], total: 3 });
    expect(await names({ pageIndex: '2', pageSize: '2' })).toEqual({ names: ['USED'], total: 3 });
    const byId = (await service.list(listRequest(ClaimSets_GetAll.list, { sortBy: 'id' }))).items.map((i) => i.id);
    expect(byId).toEqual([...byId].sort());
  });
});
