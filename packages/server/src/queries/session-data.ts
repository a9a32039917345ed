import type { SessionDataKind } from '@idsvc/shared';
import { and, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.js';
import {
  actionTokens,
  authorizationCodes,
  deviceCodes,
  refreshTokens,
  revokedAccessTokens,
  sessions,
} from '../db/schema/index.js';

export interface CleanUpScope {
  /** Only rows that can no longer be used (expired, ended, used or revoked). */
  expiredOnly: boolean;
  /** Only rows created before this instant. */
  olderThan?: Date;
}

const now = sql`now()`;

interface KindTable {
  table: PgTable;
  /** Rows that can no longer be used. */
  spent: SQL;
  /** Creation instant, where the table keeps one. */
  createdAt?: SQL;
  /** Always limited to spent rows, whatever the scope says. */
  spentOnly?: boolean;
}

const kinds: Record<SessionDataKind, KindTable> = {
  sessions: {
    table: sessions,
    spent: sql`(${sessions.expiresAt} < ${now} or ${sessions.endedAt} is not null)`,
    createdAt: sql`${sessions.createdAt}`,
  },
  authorizationCodes: {
    table: authorizationCodes,
    spent: sql`(${authorizationCodes.expiresAt} < ${now} or ${authorizationCodes.usedAt} is not null)`,
    createdAt: sql`${authorizationCodes.createdAt}`,
  },
  deviceCodes: {
    table: deviceCodes,
    spent: sql`${deviceCodes.expiresAt} < ${now}`,
    createdAt: sql`${deviceCodes.createdAt}`,
  },
  refreshTokens: {
    table: refreshTokens,
    spent: sql`(${refreshTokens.expiresAt} < ${now} or ${refreshTokens.familyExpiresAt} < ${now} or ${refreshTokens.revokedAt} is not null)`,
    createdAt: sql`${refreshTokens.createdAt}`,
  },
  // A revocation is kept until its token expires: removing it earlier would make the token valid again.
  revokedAccessTokens: {
    table: revokedAccessTokens,
    spent: sql`${revokedAccessTokens.expiresAt} < ${now}`,
    spentOnly: true,
  },
  actionTokens: {
    table: actionTokens,
    spent: sql`(${actionTokens.expiresAt} < ${now} or ${actionTokens.usedAt} is not null)`,
    createdAt: sql`${actionTokens.createdAt}`,
  },
};

/** Deletes the rows of one kind of session data within the scope; returns how many. */
export async function deleteSessionData(db: DbOrTx, kind: SessionDataKind, scope: CleanUpScope): Promise<number> {
  const { table, spent, createdAt, spentOnly } = kinds[kind];
  const where = and(
    scope.expiredOnly || spentOnly ? spent : undefined,
    scope.olderThan && createdAt ? sql`${createdAt} < ${scope.olderThan.toISOString()}::timestamptz` : undefined,
  );
  const result = await db.execute(
    sql`with removed as (delete from ${table}${where ? sql` where ${where}` : sql``} returning 1) select count(*)::int as n from removed`,
  );
  const rows = Array.isArray(result) ? result : (result as unknown as { rows: { n: number }[] }).rows;
  return Number((rows[0] as { n: number }).n);
}
