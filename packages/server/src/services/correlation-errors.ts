import { type CorrelationError, catalog, catalogExtensions, type OperationDef } from '@idsvc/shared';
import { Listing, type ListRequest, runList } from '../conventions/list.js';
import { isGuid } from '../conventions/segment.js';
import type { Db, DbOrTx } from '../db/client.js';
import { notFound } from '../http/api-error.js';
import type { ErrorEvent } from '../http/app.js';
import {
  errorRecordList,
  errorRecordsOnly,
  findErrorRecord,
  insertErrorRecord,
  toCorrelationError,
} from '../queries/error-records.js';

interface Route {
  op: OperationDef;
  pattern: RegExp;
  params: number;
}

const routes: Route[] = [...catalog, ...catalogExtensions]
  .map((op) => ({
    op,
    pattern: new RegExp(`^${op.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}/?$`),
    params: (op.path.match(/\{/g) ?? []).length,
  }))
  .sort((a, b) => a.params - b.params);

/**
 * The admin operation a request names, as the router picks it: static paths before parameterised ones, and for
 * same-shaped pairs the id operation when the last segment is a GUID.
 */
export function operationOf(method: string, path: string): string | null {
  const matches = routes.filter((r) => r.op.method === method.toUpperCase() && r.pattern.test(path));
  const fewest = matches.filter((r) => r.params === matches[0]?.params);
  if (fewest.length < 2) return fewest[0]?.op.operationId ?? null;
  const last = path.replace(/\/$/, '').split('/').pop() ?? '';
  const byId = fewest.find((r) => /\{id\}$/.test(r.op.path));
  const byName = fewest.find((r) => r !== byId);
  return (isGuid(last) ? byId : byName)?.op.operationId ?? null;
}

/** Keeps an error the server answered, under its request id, so that it can be looked up later. */
export async function recordError(db: DbOrTx, event: ErrorEvent): Promise<void> {
  await insertErrorRecord(db, {
    correlationId: event.requestId,
    actor: 'unknown',
    method: event.method,
    path: event.path.slice(0, 2048),
    operationId: operationOf(event.method, event.path),
    status: event.status,
    error: event.error,
    message: event.message.slice(0, 4096),
  });
}

/** The errors the server answered (4xx and 5xx), by correlation id. */
export function correlationErrorService(db: Db) {
  return {
    async list(request: ListRequest): Promise<Listing<CorrelationError>> {
      const { rows, total } = await runList(errorRecordList(db), request, errorRecordsOnly);
      return new Listing(rows.map(toCorrelationError), total, request);
    },

    async get(correlationId: string): Promise<CorrelationError> {
      const row = await findErrorRecord(db, correlationId);
      if (!row) throw notFound(`no error was recorded under the correlation id ${correlationId}`);
      return toCorrelationError(row);
    },
  };
}

export type CorrelationErrorService = ReturnType<typeof correlationErrorService>;
