import { and, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { samlRelayStates } from '../db/schema/index.js';

/** Keeps the sealed sign-in under its RelayState id until `expiresAt`. */
export async function keepRelayState(db: DbOrTx, id: string, sealed: string, expiresAt: Date): Promise<void> {
  await db.insert(samlRelayStates).values({ id, sealed, expiresAt });
}

/** The sealed sign-in of a RelayState id, unless unknown or expired. */
export async function findRelayState(db: DbOrTx, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ sealed: samlRelayStates.sealed })
    .from(samlRelayStates)
    .where(and(eq(samlRelayStates.id, id), gt(samlRelayStates.expiresAt, new Date())));
  return row?.sealed;
}
