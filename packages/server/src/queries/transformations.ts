import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { connections, transformations } from '../db/schema/index.js';
import type { DocumentRow } from './documents.js';
import { lower, nameIn, nameIs } from './sql.js';

/** The names of the connections whose claim transformations list the given one (any case). */
export async function connectionsUsingTransformation(db: DbOrTx, name: string): Promise<string[]> {
  const listed = sql`exists (select 1 from jsonb_array_elements_text(${connections.claimTransformations}) t where lower(t) = lower(${name}))`;
  const rows = await db
    .select({ name: connections.name })
    .from(connections)
    .where(listed)
    .orderBy(lower(connections.name));
  return rows.map((r) => r.name);
}

/** A transformation, locked for the rest of the transaction (read, change, write). */
export async function lockTransformation(tx: DbOrTx, name: string): Promise<DocumentRow | undefined> {
  const rows = await tx.select().from(transformations).where(nameIs(transformations.name, name)).limit(1).for('update');
  return rows[0];
}

/** The named transformations that exist (any case). */
export async function findTransformations(db: DbOrTx, names: readonly string[]): Promise<DocumentRow[]> {
  if (names.length === 0) return [];
  return db.select().from(transformations).where(nameIn(transformations.name, names));
}
