import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { actionTokens, refreshTokens, sessions } from '../db/schema/index.js';

/** What a one-time link does. */
export type ActionKind = 'reset' | 'offboard';

/** A browser session that ended: its id (the `sid` of its ID tokens), its user and the clients it signed in to. */
export interface EndedSession {
  id: string;
  userId: string;
  clients: string[];
}

export async function insertActionToken(
  db: DbOrTx,
  values: { tokenHash: string; kind: ActionKind; userId: string; expiresAt: Date },
): Promise<void> {
  await db.insert(actionTokens).values(values);
}

export async function deleteActionToken(db: DbOrTx, tokenHash: string): Promise<void> {
  await db.delete(actionTokens).where(eq(actionTokens.tokenHash, tokenHash));
}

const usable = (tokenHash: string, kind: ActionKind) =>
  and(
    eq(actionTokens.tokenHash, tokenHash),
    eq(actionTokens.kind, kind),
    isNull(actionTokens.usedAt),
    gt(actionTokens.expiresAt, sql`now()`),
  );

/** The user of a token that is of the kind, unused and unexpired. */
export async function findUsableToken(db: DbOrTx, tokenHash: string, kind: ActionKind): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: actionTokens.userId })
    .from(actionTokens)
    .where(usable(tokenHash, kind))
    .limit(1);
  return row?.userId;
}

/** Marks a usable token used, once (concurrent uses: one wins); returns its user, or undefined. */
export async function consumeActionToken(db: DbOrTx, tokenHash: string, kind: ActionKind): Promise<string | undefined> {
  const [row] = await db
    .update(actionTokens)
    .set({ usedAt: sql`now()` })
    .where(usable(tokenHash, kind))
    .returning({ userId: actionTokens.userId });
  return row?.userId;
}

/** Marks the user's other unused tokens of the kind used: one successful link retires the older ones. */
export async function retireOtherTokens(db: DbOrTx, userId: string, kind: ActionKind, except: string): Promise<void> {
  await db
    .update(actionTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(actionTokens.userId, userId),
        eq(actionTokens.kind, kind),
        isNull(actionTokens.usedAt),
        ne(actionTokens.tokenHash, except),
      ),
    );
}

/** Revokes every refresh token of the user and ends every session; returns how many tokens, and the sessions. */
export async function signOutEverywhere(
  db: DbOrTx,
  userId: string,
): Promise<{ refreshTokens: number; sessions: EndedSession[] }> {
  const tokens = await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  const ended = await db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)))
    .returning({ id: sessions.id, userId: sessions.userId, clients: sessions.clients });
  return { refreshTokens: tokens.length, sessions: ended };
}
