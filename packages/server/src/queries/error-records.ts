import type { CorrelationError } from '@idsvc/shared';
import { and, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { FilterSchema } from '../conventions/filter-sql.js';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { auditRecords } from '../db/schema/index.js';
import { pagedQueries } from './paged-queries.js';

/**
 * Errors answered by the server are kept in the audit trail: operation `error`, entity type `request`, entity key
 * (and request id) the correlation id, and in `changes` what the caller was told.
 */
export const ERROR_OPERATION = 'error';
export const ERROR_ENTITY = 'request';

export interface ErrorRecordValues {
  correlationId: string;
  actor: string;
  method: string;
  path: string;
  operationId: string | null;
  status: number;
  error: string;
  message: string;
}

type Row = typeof auditRecords.$inferSelect;

const isError = and(eq(auditRecords.operation, ERROR_OPERATION), eq(auditRecords.entityType, ERROR_ENTITY)) as SQL;

export function toCorrelationError(row: Row): CorrelationError {
  const c = (row.changes ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    correlationId: row.entityKey,
    occurredAt: row.at.toISOString(),
    method: text(c.method),
    path: text(c.path),
    operationId: typeof c.operationId === 'string' ? c.operationId : null,
    status: Number(c.status ?? 0),
    error: text(c.error),
    message: text(c.message),
  };
}

export async function insertErrorRecord(db: DbOrTx, values: ErrorRecordValues): Promise<void> {
  const { correlationId, actor, ...changes } = values;
  await db.insert(auditRecords).values({
    actor,
    operation: ERROR_OPERATION,
    entityType: ERROR_ENTITY,
    entityKey: correlationId,
    requestId: correlationId,
    changes,
  });
}

/** The latest error recorded under the correlation id. */
export async function findErrorRecord(db: DbOrTx, correlationId: string): Promise<Row | undefined> {
  const [row] = await db
    .select()
    .from(auditRecords)
    .where(and(isError, eq(auditRecords.entityKey, correlationId)))
    .orderBy(desc(auditRecords.at), desc(auditRecords.id))
    .limit(1);
  return row;
}

const changesText = (field: string) => sql`(${auditRecords.changes}->>${field})`;
const status = sql`${changesText('status')}::int`;

const filter: FilterSchema = {
  attributes: {
    correlationid: { sql: sql`${auditRecords.entityKey}`, type: 'string' },
    occurredat: { sql: sql`${auditRecords.at}`, type: 'datetime' },
    status: { sql: status, type: 'number' },
    operationid: { sql: changesText('operationId'), type: 'string' },
    method: { sql: changesText('method'), type: 'string' },
    path: { sql: changesText('path'), type: 'string' },
    error: { sql: changesText('error'), type: 'string' },
  },
};

/** The recorded errors as a list source; pass `errorRecordsOnly` as the fixed condition of `runList`. */
export function errorRecordList(db: DbOrTx): ListSource<Row & { total: number }> {
  return {
    filter,
    sort: { occurredat: auditRecords.at, status, operationid: sql`lower(${changesText('operationId')})` },
    tieBreaker: auditRecords.id,
    ...pagedQueries<Row>((fields) => db.select(fields).from(auditRecords).$dynamic(), getTableColumns(auditRecords)),
  };
}

export const errorRecordsOnly = isError;
