import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { oneTimeCodes } from '../db/schema/index.js';

/** Who a one-time code is for: the user and the second-factor connection. */
export interface CodeOwner {
  userId: string;
  connectionId: string;
}

const ownedBy = (owner: CodeOwner) =>
  and(eq(oneTimeCodes.userId, owner.userId), eq(oneTimeCodes.connectionId, owner.connectionId));

/**
 * Stores a new code in place of the owner's earlier one (its attempts reset), unless the earlier one was stored less
 * than `minIntervalSeconds` ago; whether it was stored.
 */
export async function replaceCode(
  db: DbOrTx,
  owner: CodeOwner,
  code: { codeHash: string; lifetimeSeconds: number; minIntervalSeconds: number },
): Promise<boolean> {
  const expiresAt = sql`now() + make_interval(secs => ${code.lifetimeSeconds})`;
  const stored = await db
    .insert(oneTimeCodes)
    .values({ ...owner, codeHash: code.codeHash, expiresAt })
    .onConflictDoUpdate({
      target: [oneTimeCodes.userId, oneTimeCodes.connectionId],
      set: { codeHash: code.codeHash, attempts: 0, createdAt: sql`now()`, expiresAt },
      setWhere: sql`${oneTimeCodes.createdAt} <= now() - make_interval(secs => ${code.minIntervalSeconds})`,
    })
    .returning({ userId: oneTimeCodes.userId });
  return stored.length === 1;
}

/** Deletes the owner's code when it is still the one of `codeHash` (a code that was not sent). */
export async function deleteCode(db: DbOrTx, owner: CodeOwner, codeHash: string): Promise<void> {
  await db.delete(oneTimeCodes).where(and(ownedBy(owner), eq(oneTimeCodes.codeHash, codeHash)));
}

/**
 * Deletes the owner's code when it is `codeHash`, unexpired and below `maxAttempts` wrong attempts: whether it did
 * (of concurrent uses of one code, one wins).
 */
export async function consumeCode(
  db: DbOrTx,
  owner: CodeOwner,
  codeHash: string,
  maxAttempts: number,
): Promise<boolean> {
  const deleted = await db
    .delete(oneTimeCodes)
    .where(
      and(
        ownedBy(owner),
        eq(oneTimeCodes.codeHash, codeHash),
        lt(oneTimeCodes.attempts, maxAttempts),
        sql`${oneTimeCodes.expiresAt} > now()`,
      ),
    )
    .returning({ userId: oneTimeCodes.userId });
  return deleted.length === 1;
}

/** The state of the owner's code, or undefined when there is none. */
export async function findCode(
  db: DbOrTx,
  owner: CodeOwner,
): Promise<{ attempts: number; expired: boolean } | undefined> {
  const [row] = await db
    .select({ attempts: oneTimeCodes.attempts, expired: sql<boolean>`${oneTimeCodes.expiresAt} <= now()` })
    .from(oneTimeCodes)
    .where(ownedBy(owner));
  return row;
}

/** Counts a wrong attempt against the owner's code (in SQL: concurrent attempts all count); the new count. */
export async function countWrongAttempt(db: DbOrTx, owner: CodeOwner): Promise<number | undefined> {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(ownedBy(owner))
    .returning({ attempts: oneTimeCodes.attempts });
  return row?.attempts;
}
