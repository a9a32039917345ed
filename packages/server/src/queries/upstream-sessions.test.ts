import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { createTestUser } from '../test-support/fixtures.js';
import { endUpstreamSessions } from './upstream-sessions.js';

let ctx: TestContext;
let userId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  userId = (await createTestUser(ctx.db)).id;
});
afterAll(async () => {
  await ctx?.close();
});

const hour = 3_600_000;

/** A session with the keys (random unless given), live unless told; returns its id. */
async function session(keys: { subject?: string; session?: string }, state: 'live' | 'ended' | 'expired' = 'live') {
  const id = randomUUID();
  await ctx.db.insert(sessions).values({
    id,
    userId,
    authTime: new Date(),
    expiresAt: new Date(Date.now() + (state === 'expired' ? -hour : hour)),
    endedAt: state === 'ended' ? new Date() : null,
    clients: ['app-1'],
    upstreamSubjectKey: keys.subject ?? null,
    upstreamSessionKey: keys.session ?? null,
  });
  return id;
}

const endedAt = async (id: string) =>
  (await ctx.db.select({ endedAt: sessions.endedAt }).from(sessions).where(eq(sessions.id, id)))[0].endedAt;
const ids = (ended: { id: string }[]) => ended.map((s) => s.id).sort();

describe('ending the live sessions an upstream logout names', () => {
  it('by the person: every live session of the subject key, returned as ended sessions', async () => {
    const subject = randomUUID();
    const [a, b] = [await session({ subject, session: 's1' }), await session({ subject })];
    const other = await session({ subject: randomUUID() });
    const ended = await endUpstreamSessions(ctx.db, { subjectKey: subject });
    expect(ids(ended)).toEqual([a, b].sort());
    expect(ended[0]).toEqual({ id: expect.any(String), userId, clients: ['app-1'] });
    expect(await endedAt(a)).not.toBeNull();
    expect(await endedAt(other)).toBeNull();
  });

  it('by sessions: any of the session keys; with the person too, both must match', async () => {
    const subject = randomUUID();
    const [k1, k2, k3] = [randomUUID(), randomUUID(), randomUUID()];
    const [one, two, three] = [
      await session({ subject, session: k1 }),
      await session({ session: k2 }),
      await session({ subject, session: k3 }),
    ];
    expect(ids(await endUpstreamSessions(ctx.db, { subjectKey: randomUUID(), sessionKeys: [k3] }))).toEqual([]);
    expect(ids(await endUpstreamSessions(ctx.db, { sessionKeys: [k1, k2] }))).toEqual([one, two].sort());
    expect(ids(await endUpstreamSessions(ctx.db, { subjectKey: subject, sessionKeys: [k3] }))).toEqual([three]);
  });

  it('leaves ended and expired sessions alone, and ends nothing for a match naming neither', async () => {
    const subject = randomUUID();
    await session({ subject }, 'ended');
    const expired = await session({ subject }, 'expired');
    const live = await session({ subject: randomUUID() });
    expect(await endUpstreamSessions(ctx.db, { subjectKey: subject })).toEqual([]);
    expect(await endedAt(expired)).toBeNull();
    expect(await endUpstreamSessions(ctx.db, {})).toEqual([]);
    expect(await endUpstreamSessions(ctx.db, { sessionKeys: [] })).toEqual([]);
    expect(await endedAt(live)).toBeNull();
  });
});
