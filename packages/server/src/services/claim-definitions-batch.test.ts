import { type ClaimDefinitionInput, ClaimDefinitions_GetAllFilter } from '@idsvc/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_CLAIM } from '../auth/roles.js';
import { listRequest } from '../conventions/list.js';
import { auditRecords, claimSets, groups, userClaims } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { createTestUser } from '../test-support/fixtures.js';
import { claimDefinitionService } from './claim-definitions.js';

const by = { actor: 'tester', requestId: 'req-cd' };
const missingId = '00000000-0000-4000-8000-000000000000';

let ctx: TestContext;
let service: ReturnType<typeof claimDefinitionService>;

const filter = (query: Record<string, string>) => listRequest(ClaimDefinitions_GetAllFilter.list, query);
const auditOf = (entityKey: string) =>
  ctx.db
    .select({ operation: auditRecords.operation, actor: auditRecords.actor, changes: auditRecords.changes })
    .from(auditRecords)
    .where(and(eq(auditRecords.entityType, 'claimDefinition'), eq(auditRecords.entityKey, entityKey)))
    .orderBy(auditRecords.id);
const create = (input: ClaimDefinitionInput) => service.create(input, by);

beforeAll(async () => {
  ctx = await createTestContext();
  service = claimDefinitionService(ctx.db);
  await ctx.db.insert(groups).values([{ name: 'Staff' }, { name: 'Sales' }]);
});

afterAll(async () => {
  await ctx?.close();
});

describe('delete', () => {
  it('succeeds for a missing claimType or id, and for an id that is not a GUID', async () => {
    await expect(service.delete('urn:none', by)).resolves.toBeUndefined();
    await expect(service.deleteById(missingId, by)).resolves.toBeUndefined();
    await expect(service.deleteById('nope', by)).resolves.toBeUndefined();
  });

  it('deletes by claimType and by id, with an audit record', async () => {
    await create({ claimType: 'urn:del:one' });
    const two = await create({ claimType: 'urn:del:two' });
    await service.delete('URN:DEL:ONE', by);
    await service.deleteById(two.id, by);
    await expect(service.get('urn:del:one')).rejects.toMatchObject({ status: 404 });
    await expect(service.get('urn:del:two')).rejects.toMatchObject({ status: 404 });
    expect((await auditOf('urn:del:one')).map((r) => r.operation)).toEqual(['create', 'delete']);
  });

  it('refuses with 409 a definition users hold claims of, naming how many', async () => {
    await createTestUser(ctx.db, { roles: ['Observer'] });
    await expect(service.delete(ROLE_CLAIM, by)).rejects.toMatchObject({
      status: 409,
      message: `the claim definition ${ROLE_CLAIM} is in use: 2 user(s) hold claims of type ${ROLE_CLAIM}; it is not deleted`,
    });
    expect((await service.get(ROLE_CLAIM)).claimType).toBe(ROLE_CLAIM);
  });

  it('refuses with 409 a definition a claim set lists', async () => {
    await create({ claimType: 'urn:del:listed' });
    await ctx.db.insert(claimSets).values({ name: 'Listing', claimTypes: ['URN:DEL:LISTED'] });
    await expect(service.delete('urn:del:listed', by)).rejects.toMatchObject({
      status: 409,
      message:
        'the claim definition urn:del:listed is in use: the claim set(s) Listing list urn:del:listed; it is not deleted',
    });
  });

  it('deletes many by claimType with a report per item', async () => {
    await create({ claimType: 'urn:many:a' });
    await create({ claimType: 'urn:many:b' });
    const result = await service.deleteMany(['urn:many:a', 'urn:many:missing', ROLE_CLAIM, 'URN:MANY:B'], by);
    expect(result.deleted).toEqual(['urn:many:a', 'URN:MANY:B']);
    expect(result.failed).toEqual([
      { index: 1, id: 'urn:many:missing', error: 'not_found', message: 'no claim definition urn:many:missing' },
      { index: 2, id: ROLE_CLAIM, error: 'conflict', message: expect.stringContaining('2 user(s)') },
    ]);
    const held = await ctx.db.select().from(userClaims).where(eq(userClaims.type, ROLE_CLAIM));
    expect(held).toHaveLength(2);
  });

  it('deletes many by id with a report per item', async () => {
    const c = await create({ claimType: 'urn:many:c' });
    const result = await service.deleteManyByIds([c.id, missingId], by);
    expect(result).toEqual({
      deleted: [c.id],
      failed: [{ index: 1, id: missingId, error: 'not_found', message: `no claim definition ${missingId}` }],
    });
  });
});

describe('createMany and updateMany', () => {
  it('creates the valid items and reports the others', async () => {
    const result = await service.createMany(
      [
        { claimType: 'urn:batch:x' },
        { claimType: 'urn:batch:x' },
        { claimType: 'urn:batch:y', variableName: 'email' },
        { claimType: 'urn:batch:z', kind: 'GroupClaimDefinition', groupNames: ['Staff'] },
      ],
      by,
    );
    expect(result.items.map((i) => i.claimType)).toEqual(['urn:batch:x', 'urn:batch:z']);
    expect(result.failed).toEqual([
      { index: 1, id: 'urn:batch:x', error: 'conflict', message: 'a claim definition of type urn:batch:x exists' },
      {
        index: 2,
        id: 'urn:batch:y',
        error: 'conflict',
        message: 'the variable name email is used by the claim definition email',
      },
    ]);
    await expect(service.get('urn:batch:y')).rejects.toMatchObject({ status: 404 });
  });

  it('answers 400 with the failures when none was created', async () => {
    await expect(service.createMany([{ claimType: 'urn:batch:x' }, { claimType: ' ' }], by)).rejects.toMatchObject({
      status: 400,
      message: 'no claim definition was created',
      details: [
        { index: 0, id: 'urn:batch:x', error: 'conflict' },
        { index: 1, id: ' ', error: 'invalid_request', message: 'a claimType is required' },
      ],
    });
  });

  it('updates the existing items and reports the missing ones; 400 when none was updated', async () => {
    const result = await service.updateMany(
      [{ claimType: 'urn:batch:none' }, { claimType: 'urn:batch:x', sensitive: true }],
      by,
    );
    expect(result.items).toMatchObject([{ claimType: 'urn:batch:x', sensitive: true }]);
    expect(result.failed).toEqual([
      { index: 0, id: 'urn:batch:none', error: 'not_found', message: 'no claim definition of type urn:batch:none' },
    ]);
    await expect(service.updateMany([{ claimType: 'urn:batch:none' }], by)).rejects.toMatchObject({
      status: 400,
      message: 'no claim definition was updated',
    });
  });
});

describe('list', () => {
  beforeAll(async () => {
    await service.createMany(
      [
        { claimType: 'urn:list:c', friendlyName: 'Charlie', sensitive: true, countSpecification: 'Single' },
        { claimType: 'urn:list:a', friendlyName: 'alpha', kind: 'OptionalClaimDefinition', allowedValues: ['gold'] },
        { claimType: 'urn:list:b', friendlyName: 'Bravo', sensitive: true, description: 'the b' },
      ],
      by,
    );
  });

  const types = async (query: Record<string, string>) => {
    const listing = await service.list(filter(query));
    return { types: listing.items.map((i) => i.claimType), total: listing.total };
  };

  it('filters on strings case-insensitively, booleans, kind and multi-valued allowedValues', async () => {
    expect(await types({ filter: 'claimType sw "URN:LIST:"' })).toEqual({
      types: ['urn:list:a', 'urn:list:b', 'urn:list:c'],
      total: 3,
    });
    expect(await types({ filter: 'claimType sw "urn:list:" and sensitive eq true' })).toEqual({
      types: ['urn:list:b', 'urn:list:c'],
      total: 2,
    });
    expect((await types({ filter: 'claimType sw "urn:list:" and countSpecification eq "single"' })).types).toEqual([
      'urn:list:c',
    ]);
    expect((await types({ filter: 'kind eq "OptionalClaimDefinition" and allowedValues eq "GOLD"' })).types).toEqual([
      'urn:list:a',
    ]);
    expect((await types({ filter: 'description co "THE B"' })).types).toEqual(['urn:list:b']);
    expect((await types({ filter: 'variableName eq "c"' })).types).toEqual(['urn:list:c']);
  });

  it('sorts by an allowed field, descending on request, and pages with the total before paging', async () => {
    const q = { filter: 'claimType sw "urn:list:"', sortBy: 'FRIENDLYNAME', sortOrder: 'Descending' };
    expect((await types(q)).types).toEqual(['urn:list:c', 'urn:list:b', 'urn:list:a']);
    expect(await types({ ...q, pageIndex: '2', pageSize: '2' })).toEqual({ types: ['urn:list:a'], total: 3 });
    expect((await types({ ...q, sortBy: 'unknown', sortOrder: 'x' })).types).toEqual([
      'urn:list:a',
      'urn:list:b',
      'urn:list:c',
    ]);
  });

  it('answers 400 invalid_filter for an unknown attribute or a filter that does not parse', async () => {
    await expect(service.list(filter({ filter: 'colour eq "x"' }))).rejects.toMatchObject({
      code: 'invalid_filter',
      status: 400,
    });
    expect(() => filter({ filter: 'claimType eq' })).toThrow(expect.objectContaining({ code: 'invalid_filter' }));
    await expect(service.list(filter({ filter: 'sensitive eq "yes"' }))).rejects.toMatchObject({
      code: 'invalid_filter',
    });
  });
});
