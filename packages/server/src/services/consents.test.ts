import { Users_GetConsent } from '@idsvc/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRequest } from '../conventions/list.js';
import { auditRecords, connections, consents, organizations, users } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { consentService } from './consents.js';

const by = { actor: 'tester', requestId: 'req-2' };
const missingUser = '00000000-0000-4000-8000-000000000000';

let ctx: TestContext;
let service: ReturnType<typeof consentService>;
let alice: string;
let bob: string;
let portal: string;
let shop: string;

async function addUser(userName: string): Promise<string> {
  const [root] = await ctx.db.select().from(organizations).where(eq(organizations.name, 'Root'));
  const [row] = await ctx.db.insert(users).values({ userName, organizationId: root.id }).returning();
  return row.id;
}

async function addConnection(name: string): Promise<string> {
  const [row] = await ctx.db
    .insert(connections)
    .values({ name, connectionType: 'Protocol', pluginType: 'OAuth20' })
    .returning();
  return row.id;
}

const list = (query: Record<string, string> = {}) => listRequest(Users_GetConsent.list!, query);
const consentsOf = (userId: string) => ctx.db.select().from(consents).where(eq(consents.userId, userId));

beforeAll(async () => {
  ctx = await createTestContext();
  service = consentService(ctx.db);
  alice = await addUser('alice');
  bob = await addUser('bob');
  portal = await addConnection('portal');
  shop = await addConnection('Shop');
  await ctx.db.insert(consents).values([
    { userId: alice, connectionId: shop, scopes: ['openid'], createdAt: new Date('2024-05-02T10:00:00.000Z') },
    {
      userId: alice,
      connectionId: portal,
      scopes: ['openid', 'profile'],
      createdAt: new Date('2024-05-01T10:00:00.000Z'),
    },
    { userId: bob, connectionId: portal, scopes: ['email'], createdAt: new Date('2024-05-03T10:00:00.000Z') },
  ]);
});

afterAll(async () => {
  await ctx?.close();
});

describe('consentService.list', () => {
  it("returns the user's consents by protocol connection name", async () => {
    const listing = await service.list(alice, list());
    expect(listing.total).toBe(2);
    expect(listing.items).toEqual([
      {
        userId: alice,
        protocolConnectionName: 'portal',
        scopes: ['openid', 'profile'],
        createdAt: '2024-05-01T10:00:00.000Z',
      },
      { userId: alice, protocolConnectionName: 'Shop', scopes: ['openid'], createdAt: '2024-05-02T10:00:00.000Z' },
    ]);
  });

  it('sorts descending and pages', async () => {
    const listing = await service.list(alice, list({ sortOrder: 'Descending', pageIndex: '2', pageSize: '1' }));
    expect(listing.total).toBe(2);
    expect(listing.items.map((c) => c.protocolConnectionName)).toEqual(['portal']);
  });

  it('answers an empty list for a user without consents and 404 for a missing user', async () => {
    const carol = await addUser('carol');
    expect((await service.list(carol, list())).items).toEqual([]);
    await expect(service.list(missingUser, list())).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('consentService.delete', () => {
  it('deletes only that consent and records it', async () => {
    await service.delete(bob, 'PORTAL', by);
    expect(await consentsOf(bob)).toEqual([]);
    expect((await consentsOf(alice)).length).toBe(2);
    const records = await ctx.db.select().from(auditRecords).where(eq(auditRecords.entityType, 'consent'));
    expect(records.map((r) => [r.actor, r.operation, r.entityKey, r.changes, r.requestId])).toEqual([
      ['tester', 'delete', `${bob}/portal`, { userId: bob, connectionName: 'portal' }, 'req-2'],
    ]);
  });

  it('succeeds when the user and connection exist but there is no consent', async () => {
    await expect(service.delete(bob, 'Shop', by)).resolves.toBeUndefined();
  });

  it('answers 404 for a missing user or connection and deletes nothing', async () => {
    await expect(service.delete(missingUser, 'portal', by)).rejects.toMatchObject({ status: 404 });
    await expect(service.delete(alice, 'nowhere', by)).rejects.toMatchObject({
      status: 404,
      message: 'connection nowhere does not exist',
    });
    expect((await consentsOf(alice)).length).toBe(2);
  });
});
