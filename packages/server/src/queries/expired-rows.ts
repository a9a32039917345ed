import { type Column, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.js';
import { SCHEMA_LOCK } from '../db/migrate.js';
import {
  actionTokens,
  auditRecords,
  authorizationCodes,
  deviceCodes,
  oneTimeCodes,
  pushedAuthorizationRequests,
  refreshTokens,
  revokedAccessTokens,
  samlRelayStates,
  sessions,
  usedSamlAssertions,
} from '../db/schema/index.js';
import { rowsOf } from './bulk.js';
import { errorRecordsOnly } from './error-records.js';

/** Advisory lock id that lets one instance at a time remove expired rows (beside SEED_LOCK and SIGNING_KEYS_LOCK). */
export const HOUSEKEEPING_LOCK = SCHEMA_LOCK + 3;

/** What is removed once it is of no more use, in the order it is removed. */
export const expiredRowKinds = [
  'sessions',
  'authorizationCodes',
  'refreshTokens',
  'deviceCodes',
  'actionTokens',
  'oneTimeCodes',
  'usedSamlAssertions',
  'samlRelayStates',
  'pushedAuthorizationRequests',
  'revokedAccessTokens',
  'correlationErrors',
] as const;

export type ExpiredRowKind = (typeof expiredRowKinds)[number];

const olderThan = (column: Column, seconds: number): SQL => sql`${column} < now() - make_interval(secs => ${seconds})`;

/**
 * Per kind, the table and the rows that are of no more use `seconds` after they expired (correlation errors:
 * after they were recorded). A session stays while a refresh token that can still be used came from it: a refreshed
 * ID token repeats the session's `amr`.
 */
const kinds: Record<ExpiredRowKind, { table: PgTable; expired: (seconds: number) => SQL }> = {
  sessions: {
    table: sessions,
    expired: (seconds) =>
      sql`${olderThan(sessions.expiresAt, seconds)} and not exists (select 1 from ${refreshTokens}
        where ${refreshTokens.sessionId} = ${sessions.id} and ${refreshTokens.expiresAt} > now()
          and ${refreshTokens.rotatedAt} is null and ${refreshTokens.revokedAt} is null)`,
  },
  authorizationCodes: {
    table: authorizationCodes,
    expired: (seconds) => olderThan(authorizationCodes.expiresAt, seconds),
  },
  refreshTokens: { table: refreshTokens, expired: (seconds) => olderThan(refreshTokens.expiresAt, seconds) },
  deviceCodes: { table: deviceCodes, expired: (seconds) => olderThan(deviceCodes.expiresAt, seconds) },
  actionTokens: { table: actionTokens, expired: (seconds) => olderThan(actionTokens.expiresAt, seconds) },
  oneTimeCodes: { table: oneTimeCodes, expired: (seconds) => olderThan(oneTimeCodes.expiresAt, seconds) },
  usedSamlAssertions: {
    table: usedSamlAssertions,
    expired: (seconds) => olderThan(usedSamlAssertions.expiresAt, seconds),
  },
  samlRelayStates: { table: samlRelayStates, expired: (seconds) => olderThan(samlRelayStates.expiresAt, seconds) },
  pushedAuthorizationRequests: {
    table: pushedAuthorizationRequests,
    expired: (seconds) => olderThan(pushedAuthorizationRequests.expiresAt, seconds),
  },
  revokedAccessTokens: {
    table: revokedAccessTokens,
    expired: (seconds) => olderThan(revokedAccessTokens.expiresAt, seconds),
  },
  correlationErrors: {
    table: auditRecords,
    expired: (seconds) => sql`${errorRecordsOnly} and ${olderThan(auditRecords.at, seconds)}`,
  },
};

/**
 * Deletes at most `limit` rows of the kind that are of no more use `seconds` after they expired; returns how many.
 * The rows are picked by their physical address (a TID scan, on PostgreSQL and the embedded database alike) and the
 * condition is checked again as they are deleted, so a row renewed meanwhile (a replaced one-time code) stays.
 */
export async function deleteExpiredBatch(
  db: DbOrTx,
  kind: ExpiredRowKind,
  seconds: number,
  limit: number,
): Promise<number> {
  const { table, expired } = kinds[kind];
  const condition = expired(seconds);
  const result = await db.execute(
    sql`with removed as (delete from ${table}
      where ctid = any(array(select ctid from ${table} where ${condition} limit ${limit}::int)) and ${condition}
      returning 1)
    select count(*)::int as n from removed`,
  );
  return Number(rowsOf<{ n: number }>(result)[0].n);
}

/** Takes the housekeeping lock for the rest of the transaction when no other transaction holds it; whether it did. */
export async function tryHousekeepingLock(tx: DbOrTx): Promise<boolean> {
  const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${HOUSEKEEPING_LOCK}) as locked`);
  return rowsOf<{ locked: boolean }>(result)[0].locked === true;
}
