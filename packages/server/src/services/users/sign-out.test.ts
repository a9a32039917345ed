import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/index.js';
import type { EndedSession } from '../../queries/action-tokens.js';
import { createTestContext, type TestContext } from '../../test-support/context.js';
import { createTestUser } from '../../test-support/fixtures.js';
import { userService } from './index.js';

let ctx: TestContext;
const by = { actor: 'test' };
const hour = 3_600_000;
const told: EndedSession[][] = [];
let service: ReturnType<typeof userService>;

beforeAll(async () => {
  ctx = await createTestContext();
  service = userService(ctx.db, { sessionsEnded: (ended) => told.push(ended) });
});
afterAll(() => ctx.close());

/** A user with a live session that signed in to a client, an expired one and an ended one. */
async function userWithSessions() {
  const user = await createTestUser(ctx.db);
  const live = randomUUID();
  await ctx.db.insert(sessions).values([
    { id: live, userId: user.id, authTime: new Date(), expiresAt: new Date(Date.now() + hour), clients: ['app'] },
    { userId: user.id, authTime: new Date(), expiresAt: new Date(Date.now() - hour), clients: ['app'] },
    {
      userId: user.id,
      authTime: new Date(),
      expiresAt: new Date(Date.now() + hour),
      endedAt: new Date(Date.now() - 1000),
      clients: ['app'],
    },
  ]);
  told.length = 0;
  return { user, live, expected: [[{ id: live, userId: user.id, clients: ['app'] }]] };
}

const endedAt = async (id: string) =>
  (await ctx.db.select({ endedAt: sessions.endedAt }).from(sessions).where(eq(sessions.id, id)))[0]?.endedAt;

describe('signing out users the admin API disables or deletes', () => {
  it('ends the live sessions of a user made inactive and hands them over once committed', async () => {
    const { user, live, expected } = await userWithSessions();
    await service.update({ id: user.id, active: false }, by);
    expect(told).toEqual(expected);
    expect(await endedAt(live)).toBeInstanceOf(Date);
    // Enabled again, the user's old session stays ended.
    await service.update({ id: user.id, active: true }, by);
    expect(await endedAt(live)).toBeInstanceOf(Date);
    expect(told).toHaveLength(1);
  });

  it('leaves the sessions of a user updated otherwise alone', async () => {
    const { user, live } = await userWithSessions();
    await service.update({ id: user.id, displayName: 'Still Here' }, by);
    await service.patch(user.id, [{ op: 'replace', path: 'displayName', value: 'Patched' }], by);
    expect(told).toEqual([]);
    expect(await endedAt(live)).toBeNull();
  });

  it('ends the sessions of users made inactive by status', async () => {
    const { user, live, expected } = await userWithSessions();
    await service.setStatuses([{ identityClaim: { type: 'id', value: user.id }, active: false }], by);
    expect(told).toEqual(expected);
    expect(await endedAt(live)).toBeInstanceOf(Date);
  });

  it('hands over the live sessions of a deleted user, alone or among others', async () => {
    const first = await userWithSessions();
    await service.delete(first.user.id, by);
    expect(told).toEqual(first.expected);

    const second = await userWithSessions();
    const result = await service.deleteMany([second.user.id, randomUUID()], by);
    expect(result.deleted).toEqual([second.user.id]);
    expect(told).toEqual(second.expected);
  });

  it('tells nothing when a change fails and is rolled back', async () => {
    const { user, live } = await userWithSessions();
    await expect(service.updateMany([{ id: user.id, active: false }, { id: randomUUID() }], by)).rejects.toThrow();
    expect(told).toEqual([]);
    expect(await endedAt(live)).toBeNull();
  });
});
