import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { consents } from '../db/schema/index.js';

/** Whether the user consented to every one of the scopes for the protocol connection. */
export async function hasConsent(db: DbOrTx, userId: string, connectionId: string, scopes: readonly string[]) {
  const [row] = await db
    .select({ scopes: consents.scopes })
    .from(consents)
    .where(and(eq(consents.userId, userId), eq(consents.connectionId, connectionId)));
  return row !== undefined && scopes.every((s) => row.scopes.includes(s));
}

/** Records the user's consent to the scopes (added to those consented before). */
export async function recordConsent(db: DbOrTx, userId: string, connectionId: string, scopes: readonly string[]) {
  const value = JSON.stringify([...new Set(scopes)]);
  await db
    .insert(consents)
    .values({ userId, connectionId, scopes: [...new Set(scopes)] })
    .onConflictDoUpdate({
      target: [consents.userId, consents.connectionId],
      set: {
        scopes: sql`(select coalesce(jsonb_agg(distinct s), '[]'::jsonb) from jsonb_array_elements_text(${consents.scopes} || ${value}::jsonb) as s)`,
      },
    });
}
