import type { Authenticator } from '@idsvc/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { authenticators, connections } from '../db/schema/index.js';
import { lower, nameIs } from './sql.js';

export const SECOND_FACTOR = 'SecondFactor';

type Row = { connectionName: string; pluginType: string; enrolledAt: Date | null };

export const toAuthenticator = (row: Row): Authenticator => ({
  connectionName: row.connectionName,
  pluginType: row.pluginType,
  enrolled: row.enrolledAt !== null,
  enrolledAt: row.enrolledAt?.toISOString() ?? null,
});

/**
 * The second-factor connections a user may enrol from the profile page (configuration
 * `enableAuthenticatorFromMyProfile: true`), each with the user's enrolment, by name.
 */
export async function profileAuthenticators(db: DbOrTx, userId: string): Promise<Row[]> {
  return db
    .select({
      connectionName: connections.name,
      pluginType: connections.pluginType,
      enrolledAt: authenticators.enrolledAt,
    })
    .from(connections)
    .leftJoin(authenticators, and(eq(authenticators.connectionId, connections.id), eq(authenticators.userId, userId)))
    .where(
      and(
        eq(connections.connectionType, SECOND_FACTOR),
        sql`${connections.configuration} -> 'enableAuthenticatorFromMyProfile' = 'true'::jsonb`,
      ),
    )
    .orderBy(lower(connections.name), connections.id);
}

/** A second-factor connection by name (case-insensitive); connections of other types do not count. */
export async function findSecondFactorConnection(
  db: DbOrTx,
  name: string,
): Promise<{ id: string; name: string } | undefined> {
  const rows = await db
    .select({ id: connections.id, name: connections.name })
    .from(connections)
    .where(and(nameIs(connections.name, name), eq(connections.connectionType, SECOND_FACTOR)))
    .limit(1);
  return rows[0];
}

export async function findAuthenticator(
  db: DbOrTx,
  userId: string,
  connectionId: string,
): Promise<typeof authenticators.$inferSelect | undefined> {
  const rows = await db
    .select()
    .from(authenticators)
    .where(and(eq(authenticators.userId, userId), eq(authenticators.connectionId, connectionId)))
    .limit(1);
  return rows[0];
}

/** Stores the user's sealed secret for the connection, replacing an earlier one. */
export async function upsertAuthenticator(
  db: DbOrTx,
  userId: string,
  connectionId: string,
  secretEnc: string,
): Promise<void> {
  await db
    .insert(authenticators)
    .values({ userId, connectionId, secretEnc })
    .onConflictDoUpdate({
      target: [authenticators.userId, authenticators.connectionId],
      set: { secretEnc, enrolledAt: sql`now()`, lastTimeStep: null },
    });
}

/** Deletes the user's authenticator of the connection; true when there was one. */
export async function deleteAuthenticator(db: DbOrTx, userId: string, connectionId: string): Promise<boolean> {
  const rows = await db
    .delete(authenticators)
    .where(and(eq(authenticators.userId, userId), eq(authenticators.connectionId, connectionId)))
    .returning({ userId: authenticators.userId });
  return rows.length > 0;
}
