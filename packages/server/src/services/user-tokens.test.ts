import { Users_GetAllRefreshToken } from '@idsvc/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRequest } from '../conventions/list.js';
import { sha256 } from '../crypto/digest.js';
import { auditRecords, organizations, refreshTokens, users } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { userTokenService } from './user-tokens.js';

const by = { actor: 'tester', requestId: 'req-1' };
const future = new Date('2099-01-01T00:00:00.000Z');
const familyEnd = new Date('2099-06-01T00:00:00.000Z');
const missingUser = '00000000-0000-4000-8000-000000000000';

let ctx: TestContext;
let service: ReturnType<typeof userTokenService>;
let alice: string;
let bob: string;

async function addUser(userName: string): Promise<string> {
  const [root] = await ctx.db.select().from(organizations).where(eq(organizations.name, 'Root'));
  const [row] = await ctx.db.insert(users).values({ userName, organizationId: root.id }).returning();
  return row.id;
}

async function addToken(values: Partial<typeof refreshTokens.$inferInsert> & { token: string; userId: string }) {
  const { token, ...rest } = values;
  const [row] = await ctx.db
    .insert(refreshTokens)
    .values({
      tokenHash: sha256(token),
      familyId: crypto.randomUUID(),
      clientId: 'app',
      scope: 'openid offline_access',
      expiresAt: future,
      familyExpiresAt: familyEnd,
      ...rest,
    })
    .returning();
  return row.id;
}

const list = (query: Record<string, string> = {}) => listRequest(Users_GetAllRefreshToken.list!, query);

beforeAll(async () => {
  ctx = await createTestContext();
  service = userTokenService(ctx.db);
  alice = await addUser('alice');
  bob = await addUser('bob');
});

afterAll(async () => {
  await ctx?.close();
});

describe('userTokenService.list', () => {
  let first: string;
  let second: string;

  beforeAll(async () => {
    first = await addToken({
      token: 'tok-first',
      userId: alice,
      createdAt: new Date('2024-01-01T00:00:00.000Z'),
      expiresAt: new Date('2099-03-01T00:00:00.000Z'),
    });
    second = await addToken({
      token: 'tok-second',
      userId: alice,
      clientId: 'other',
      scope: 'offline_access',
      createdAt: new Date('2024-02-01T00:00:00.000Z'),
      expiresAt: new Date('2099-02-01T00:00:00.000Z'),
    });
    await addToken({ token: 'tok-revoked', userId: alice, revokedAt: new Date() });
    await addToken({ token: 'tok-rotated', userId: alice, rotatedAt: new Date() });
    await addToken({ token: 'tok-expired', userId: alice, expiresAt: new Date('2020-01-01T00:00:00.000Z') });
    await addToken({ token: 'tok-bob', userId: bob });
  });

  it('returns only the valid tokens of the user, with their dates and without the token', async () => {
    const listing = await service.list(alice, list());
    expect(listing.total).toBe(2);
    expect(listing.items).toEqual([
      {
        id: first,
        userId: alice,
        clientId: 'app',
        creationDate: '2024-01-01T00:00:00.000Z',
        expirationDate: '2099-03-01T00:00:00.000Z',
        refreshTokenExpirationDate: '2099-06-01T00:00:00.000Z',
        scope: 'openid offline_access',
      },
      {
        id: second,
        userId: alice,
        clientId: 'other',
        creationDate: '2024-02-01T00:00:00.000Z',
        expirationDate: '2099-02-01T00:00:00.000Z',
        refreshTokenExpirationDate: '2099-06-01T00:00:00.000Z',
        scope: 'offline_access',
      },
    ]);
  });

  it('sorts by expirationDate and pages', async () => {
    const sorted = await service.list(alice, list({ sortBy: 'expirationDate' }));
    expect(sorted.items.map((t) => t.id)).toEqual([second, first]);
    const page = await service.list(alice, list({ sortBy: 'creationDate', sortOrder: 'Descending', pageSize: '1' }));
    expect(page.total).toBe(2);
    expect(page.items.map((t) => t.id)).toEqual([second]);
  });

  it('answers 404 for a user that does not exist', async () => {
    await expect(service.list(missingUser, list())).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('userTokenService.revoke', () => {
  const revokedAt = async (id: string) =>
    (await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.id, id)))[0].revokedAt;
  const auditsOf = (id: string) => ctx.db.select().from(auditRecords).where(eq(auditRecords.entityKey, id));

  it('revokes a token given by its value and records it', async () => {
    const id = await addToken({ token: 'tok-by-value', userId: bob });
    await service.revoke('tok-by-value', by);
    expect(await revokedAt(id)).toBeInstanceOf(Date);
    const records = await auditsOf(id);
    expect(records.map((r) => [r.actor, r.operation, r.entityType, r.changes, r.requestId])).toEqual([
      ['tester', 'delete', 'refreshToken', { userId: bob, clientId: 'app' }, 'req-1'],
    ]);
  });

  it('revokes a token given by its id, which then leaves the list', async () => {
    const id = await addToken({ token: 'tok-by-id', userId: bob });
    expect((await service.list(bob, list())).items.map((t) => t.id)).toContain(id);
    await service.revoke(id.toUpperCase(), by);
    expect(await revokedAt(id)).toBeInstanceOf(Date);
    expect((await service.list(bob, list())).items.map((t) => t.id)).not.toContain(id);
  });

  it('succeeds without a change or a record when nothing matches', async () => {
    const before = (await ctx.db.select().from(auditRecords)).length;
    await expect(service.revoke('no-such-token', by)).resolves.toBeUndefined();
    await expect(service.revoke(missingUser, by)).resolves.toBeUndefined();
    expect((await ctx.db.select().from(auditRecords)).length).toBe(before);
  });
});
