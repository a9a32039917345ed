import type { OpInfo } from './catalog/types.js';
import type { ApiResponse, QueryValue } from './client/http.js';
import type { Context } from './context.js';
import { ApiCallError, UsageError } from './errors.js';
import type { TableHints } from './output/options.js';
import { printData } from './output/print.js';

export interface OperationCall {
  params: Record<string, string>;
  query: Record<string, QueryValue>;
  body?: unknown;
  /** Fetch every page of a list (pageSize 1000) and print them as one list. */
  all?: boolean;
  /** Treat a list's 404 "none found" (the spec's rule for some lists) as an empty list. */
  emptyListOk?: boolean;
}

export interface OperationResult {
  data: unknown;
  /** X-Total-Count of a list. */
  total?: number;
  response?: ApiResponse;
}

/** The path of an operation with its parameters filled in (each URL-encoded). */
export function pathOf(op: Pick<OpInfo, 'path'>, params: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new UsageError(`missing ${name}`);
    return encodeURIComponent(value);
  });
}

const pageSize = 1000;

function isEmptyList(op: OpInfo, error: unknown): boolean {
  return op.method === 'GET' && op.list !== undefined && error instanceof ApiCallError && error.status === 404;
}

/** Calls an operation; with `all`, follows the pages of a list to the end. */
export async function callOperation(ctx: Context, op: OpInfo, call: OperationCall): Promise<OperationResult> {
  const api = await ctx.api();
  const path = pathOf(op, call.params);
  if (!(call.all && op.list)) {
    try {
      const response = await api.call(op.method, path, { query: call.query, body: call.body });
      const total = response.headers['x-total-count'];
      return { data: response.body, total: total === undefined ? undefined : Number(total), response };
    } catch (error) {
      if (call.emptyListOk && isEmptyList(op, error)) return { data: [], total: 0 };
      throw error;
    }
  }
  const items: unknown[] = [];
  for (let pageIndex = 1; ; pageIndex++) {
    let response: ApiResponse;
    try {
      response = await api.call(op.method, path, { query: { ...call.query, pageIndex, pageSize }, body: call.body });
    } catch (error) {
      if (isEmptyList(op, error)) break;
      throw error;
    }
    const page = Array.isArray(response.body) ? response.body : [];
    items.push(...page);
    const total = Number(response.headers['x-total-count'] ?? Number.NaN);
    if (page.length < pageSize || (Number.isFinite(total) && items.length >= total)) break;
  }
  return { data: items, total: items.length };
}

/** Calls an operation and prints its answer (or a line saying it was done, for an empty answer). */
export async function runOperation(
  ctx: Context,
  op: OpInfo,
  call: OperationCall,
  hints: TableHints = {},
): Promise<OperationResult> {
  const result = await callOperation(ctx, op, call);
  if (result.data === undefined) {
    ctx.info(`${op.operationId}: done`);
    return result;
  }
  await printData(result.data, ctx.out, hints);
  if (
    ctx.out.format === 'table' &&
    Array.isArray(result.data) &&
    result.total !== undefined &&
    result.total > result.data.length
  ) {
    ctx.info(ctx.err.dim(`showing ${result.data.length} of ${result.total}; --all shows every page`));
  }
  return result;
}
