import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { systemState } from '../db/schema/index.js';

/** Keys of the single-object settings kept in system_state. */
export const stateKeys = {
  systemSetup: 'systemSetup',
  license: 'license',
  fieldConfiguration: 'fieldConfiguration',
} as const;

export interface StateRow {
  value: unknown;
  updatedAt: Date;
}

export async function readState(db: DbOrTx, key: string): Promise<StateRow | undefined> {
  const [row] = await db
    .select({ value: systemState.value, updatedAt: systemState.updatedAt })
    .from(systemState)
    .where(eq(systemState.key, key));
  return row;
}

/**
 * Reads a value for a read-modify-write in the caller's transaction: makes the row (with `initial`) when it is
 * missing, then locks it, so that concurrent writers, in this process or another, take turns.
 */
export async function lockState(db: DbOrTx, key: string, initial: unknown): Promise<StateRow> {
  await db.insert(systemState).values({ key, value: initial }).onConflictDoNothing();
  const [row] = await db
    .select({ value: systemState.value, updatedAt: systemState.updatedAt })
    .from(systemState)
    .where(eq(systemState.key, key))
    .for('update');
  return row;
}

export async function writeState(db: DbOrTx, key: string, value: unknown): Promise<StateRow> {
  const [row] = await db
    .insert(systemState)
    .values({ key, value })
    .onConflictDoUpdate({ target: systemState.key, set: { value, updatedAt: sql`now()` } })
    .returning({ value: systemState.value, updatedAt: systemState.updatedAt });
  return row;
}
