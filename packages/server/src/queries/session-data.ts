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
import type { EndedSession } from './action-tokens.js';
import { rowsOf } from './bulk.js';

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

/** What a clean-up of one kind removed: how many rows, and the sessions among them that were live and had clients. */
export interface RemovedSessionData {
  count: number;
  /** Sessions only: those removed while live (not ended, not expired) that signed someone in to a client. */
  live: EndedSession[];
}

/** Deletes the rows of one kind of session data within the scope, in one statement. */
export async function deleteSessionData(
  db: DbOrTx,
  kind: SessionDataKind,
  scope: CleanUpScope,
): Promise<RemovedSessionData> {
  const { table, spent, createdAt, spentOnly } = kinds[kind];
  const where = and(
    scope.expiredOnly || spentOnly ? spent : undefined,
    scope.olderThan && createdAt ? sql`${createdAt} < ${scope.olderThan.toISOString()}::timestamptz` : undefined,
  );
  const from = sql`${table}${where ? sql` where ${where}` : sql``}`;
  // Removing live sessions signs people out: those are returned, for their clients to be told.
  const statement =
    kind === 'sessions' && !scope.expiredOnly
      ? sql`with removed as (delete from ${from} returning id, user_id, clients, ended_at is null and expires_at > now() as live)
          select count(*)::int as n, coalesce(json_agg(json_build_object('id', id, 'userId', user_id, 'clients', clients))
            filter (where live and jsonb_array_length(clients) > 0), '[]'::json) as live from removed`
      : sql`with removed as (delete from ${from} returning 1) select count(*)::int as n, '[]'::json as live from removed`;
  const [row] = rowsOf<{ n: number; live: EndedSession[] | string }>(await db.execute(statement));
  const live = typeof row.live === 'string' ? (JSON.parse(row.live) as EndedSession[]) : row.live;
  return { count: Number(row.n), live };
}
