import { and, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { sessions } from '../db/schema/index.js';
import type { EndedSession } from './action-tokens.js';

/** Ends the live sessions (not ended, not expired) of the users and returns them. */
export async function endLiveSessionsOfUsers(db: DbOrTx, userIds: readonly string[]): Promise<EndedSession[]> {
  if (userIds.length === 0) return [];
  return db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(and(inArray(sessions.userId, [...userIds]), isNull(sessions.endedAt), gt(sessions.expiresAt, sql`now()`)))
    .returning({ id: sessions.id, userId: sessions.userId, clients: sessions.clients });
}
