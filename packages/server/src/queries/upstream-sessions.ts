import { and, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { sessions } from '../db/schema/index.js';
import type { EndedSession } from './action-tokens.js';

/**
 * The live sessions an upstream provider's back-channel logout names, by the digests kept when they were started
 * (runtime/upstream/upstream-session-keys.ts): of the person there, of sessions there, or of both (then a session
 * must match both).
 */
export interface UpstreamSessionMatch {
  subjectKey?: string | undefined;
  /** Any of these sessions there; none named (or an empty list): no narrowing by session. */
  sessionKeys?: readonly string[] | undefined;
}

/**
 * Ends the live sessions (not ended, not expired) the match names and returns them. A match that names neither a
 * person nor a session ends nothing.
 */
export async function endUpstreamSessions(db: DbOrTx, match: UpstreamSessionMatch): Promise<EndedSession[]> {
  const named: SQL[] = [];
  if (match.subjectKey !== undefined) named.push(eq(sessions.upstreamSubjectKey, match.subjectKey));
  if (match.sessionKeys?.length) named.push(inArray(sessions.upstreamSessionKey, [...match.sessionKeys]));
  if (named.length === 0) return [];
  return db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(and(...named, isNull(sessions.endedAt), gt(sessions.expiresAt, sql`now()`)))
    .returning({ id: sessions.id, userId: sessions.userId, clients: sessions.clients });
}
