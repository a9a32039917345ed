import type { Consent } from '@idsvc/shared';
import { and, eq } from 'drizzle-orm';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { connections, consents, users } from '../db/schema/index.js';
import { pagedQueries } from './paged-queries.js';
import { lower, nameIs } from './sql.js';

type Row = { userId: string; connectionName: string; scopes: string[]; createdAt: Date };

export const toConsent = (row: Row): Consent => ({
  userId: row.userId,
  protocolConnectionName: row.connectionName,
  scopes: row.scopes,
  createdAt: row.createdAt.toISOString(),
});

const columns = {
  userId: consents.userId,
  connectionName: connections.name,
  scopes: consents.scopes,
  createdAt: consents.createdAt,
};

/** Consents of one user (the fixed condition the service passes is `consentsOf(userId)`). */
export function consentList(db: DbOrTx): ListSource<Row & { total: number }> {
  return {
    filter: { attributes: {} },
    sort: { protocolconnectionname: lower(connections.name) },
    tieBreaker: consents.connectionId,
    ...pagedQueries<Row>(
      (fields) =>
        db.select(fields).from(consents).innerJoin(connections, eq(consents.connectionId, connections.id)).$dynamic(),
      columns,
    ),
  };
}

export const consentsOf = (userId: string) => eq(consents.userId, userId);

/** Deletes one consent; true when there was one. */
export async function deleteConsent(db: DbOrTx, userId: string, connectionId: string): Promise<boolean> {
  const rows = await db
    .delete(consents)
    .where(and(eq(consents.userId, userId), eq(consents.connectionId, connectionId)))
    .returning({ userId: consents.userId });
  return rows.length > 0;
}

/** Whether a user with this id exists. */
export async function userExists(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  return rows.length > 0;
}

/** A connection of any type by name (case-insensitive). */
export async function findConnection(db: DbOrTx, name: string): Promise<{ id: string; name: string } | undefined> {
  const rows = await db
    .select({ id: connections.id, name: connections.name })
    .from(connections)
    .where(nameIs(connections.name, name))
    .limit(1);
  return rows[0];
}
