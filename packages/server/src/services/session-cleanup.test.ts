import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionTokens, refreshTokens, revokedAccessTokens, sessions } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { createTestUser } from '../test-support/fixtures.js';
import { systemSetupService } from './system-setup.js';

let ctx: TestContext;
let userId: string;
const by = { actor: 'test' };
const hour = 3_600_000;
const at = (offset: number) => new Date(Date.now() + offset);

beforeAll(async () => {
  ctx = await createTestContext();
  userId = (await createTestUser(ctx.db)).id;
});
afterAll(() => ctx.close());

async function addSessions() {
  await ctx.db.insert(sessions).values([
    { userId, authTime: at(-3 * hour), createdAt: at(-3 * hour), expiresAt: at(-hour) },
    { userId, authTime: at(-hour), createdAt: at(-hour), expiresAt: at(hour), endedAt: at(-1000) },
    { userId, authTime: at(0), expiresAt: at(hour) },
  ]);
}

describe('cleanUpSessionData', () => {
  it('removes only expired or ended sessions by default, and counts them', async () => {
    await addSessions();
    const service = systemSetupService(ctx.db);
    expect(await service.cleanUpSessionData({ kinds: ['sessions'], expiredOnly: true }, by)).toEqual({ sessions: 2 });
    expect(await ctx.db.select().from(sessions)).toHaveLength(1);
    expect(await service.cleanUpSessionData({ kinds: ['sessions'], expiredOnly: false }, by)).toEqual({ sessions: 1 });
  });

  it('limits the removal to data created before olderThan', async () => {
    await addSessions();
    const service = systemSetupService(ctx.db);
    const olderThan = at(-2 * hour).toISOString();
    expect(await service.cleanUpSessionData({ kinds: ['sessions'], expiredOnly: false, olderThan }, by)).toEqual({
      sessions: 1,
    });
    await service.cleanUpSessionData({ kinds: ['sessions'], expiredOnly: false }, by);
  });

  it('keeps a revocation until its token expires, whatever expiredOnly says', async () => {
    await ctx.db.insert(revokedAccessTokens).values([
      { jti: randomUUID(), expiresAt: at(-hour) },
      { jti: randomUUID(), expiresAt: at(hour) },
    ]);
    const result = await systemSetupService(ctx.db).cleanUpSessionData(
      { kinds: ['revokedAccessTokens'], expiredOnly: false },
      by,
    );
    expect(result).toEqual({ revokedAccessTokens: 1 });
    expect(await ctx.db.select().from(revokedAccessTokens)).toHaveLength(1);
  });

  it('counts every kind when none is named, and removes used or revoked tokens as spent', async () => {
    const familyId = randomUUID();
    await ctx.db.insert(refreshTokens).values([
      {
        tokenHash: randomUUID(),
        familyId,
        clientId: 'c',
        expiresAt: at(hour),
        familyExpiresAt: at(hour),
        revokedAt: at(0),
      },
      { tokenHash: randomUUID(), familyId, clientId: 'c', expiresAt: at(hour), familyExpiresAt: at(hour) },
    ]);
    await ctx.db.insert(actionTokens).values([
      { tokenHash: randomUUID(), kind: 'reset', userId, expiresAt: at(hour), usedAt: at(0) },
      { tokenHash: randomUUID(), kind: 'reset', userId, expiresAt: at(hour) },
    ]);
    expect(await systemSetupService(ctx.db).cleanUpSessionData({ expiredOnly: true }, by)).toEqual({
      sessions: 0,
      authorizationCodes: 0,
      deviceCodes: 0,
      refreshTokens: 1,
      revokedAccessTokens: 0,
      actionTokens: 1,
    });
  });

  it('hands over the live sessions with clients it removed, once committed, and none when only spent ones go', async () => {
    const [live, liveWithoutClients, ended] = [randomUUID(), randomUUID(), randomUUID()];
    await ctx.db.insert(sessions).values([
      { id: live, userId, authTime: at(0), expiresAt: at(hour), clients: ['app-one', 'app-two'] },
      { id: liveWithoutClients, userId, authTime: at(0), expiresAt: at(hour) },
      { id: ended, userId, authTime: at(-hour), expiresAt: at(hour), endedAt: at(-1000), clients: ['app-one'] },
    ]);
    const told: unknown[][] = [];
    const service = systemSetupService(ctx.db, { sessionsEnded: (sessions) => told.push(sessions) });

    expect(await service.cleanUpSessionData({ kinds: ['sessions'], expiredOnly: true }, by)).toEqual({ sessions: 1 });
    expect(told).toEqual([]);
    expect(await service.cleanUpSessionData({ kinds: ['sessions'], expiredOnly: false }, by)).toEqual({ sessions: 2 });
    expect(told).toEqual([[{ id: live, userId, clients: ['app-one', 'app-two'] }]]);
  });
});
