import { type FilterNode, InvalidFilterError, type ListSpec, parseFilter } from '@idsvc/shared';
import { type AnyColumn, and, asc, desc, type SQL } from 'drizzle-orm';
import { ApiError } from '../http/api-error.js';
import { parseAttributes } from './attributes.js';
import { type FilterSchema, filterToSql } from './filter-sql.js';
import { normalisePaging, type PageRequest } from './paging.js';
import { resolveSort, type SortRequest } from './sorting.js';

/** A list or filter request after normalisation: what every list operation hands to its query. */
export interface ListRequest {
  page: PageRequest;
  sort: SortRequest;
  filter?: FilterNode;
  attributes?: string[];
}

/** One page of results and the number of matches before paging. */
export class Listing<T> {
  constructor(
    readonly items: T[],
    readonly total: number,
    readonly request: ListRequest,
  ) {}

  map<U>(fn: (item: T) => U): Listing<U> {
    return new Listing(this.items.map(fn), this.total, this.request);
  }
}

export interface ListQueryInput {
  pageIndex?: string;
  pageSize?: string;
  sortBy?: string;
  sortOrder?: string;
  filter?: string;
  attributes?: string | readonly string[];
}

/** Builds a ListRequest from the query (or a search body); a filter that does not parse is a 400 invalid_filter. */
export function listRequest(spec: ListSpec, input: ListQueryInput): ListRequest {
  const filterText = input.filter?.trim();
  let filter: FilterNode | undefined;
  if (filterText) {
    try {
      filter = parseFilter(filterText);
    } catch (error) {
      throw asFilterError(error);
    }
  }
  return {
    page: normalisePaging(input.pageIndex, input.pageSize),
    sort: resolveSort(spec, input.sortBy, input.sortOrder),
    filter,
    attributes: parseAttributes(input.attributes),
  };
}

export function asFilterError(error: unknown): unknown {
  return error instanceof InvalidFilterError ? new ApiError('invalid_filter', error.message) : error;
}

/** What a resource's query module provides so that the generic engine can list it. */
export interface ListSource<Row> {
  filter: FilterSchema;
  /** Lower-case sortable field → expression. */
  sort: Record<string, SQL | AnyColumn>;
  /** Makes the order total (the key). */
  tieBreaker: SQL | AnyColumn;
  /** Rows of one page; each row carries `total`, the window count of all matches. */
  select(args: { where: SQL | undefined; orderBy: SQL[]; limit: number; offset: number }): Promise<Row[]>;
  count(where: SQL | undefined): Promise<number>;
}

/** Runs a list request in the database: filter, order, page and count, all in SQL. */
export async function runList<Row extends { total: number }>(
  source: ListSource<Row>,
  request: ListRequest,
  fixed?: SQL,
): Promise<{ rows: Row[]; total: number }> {
  let filterSql: SQL | undefined;
  try {
    filterSql = request.filter ? filterToSql(request.filter, source.filter) : undefined;
  } catch (error) {
    throw asFilterError(error);
  }
  const where = and(fixed, filterSql);
  const direction = request.sort.descending ? desc : asc;
  const sortExpr = source.sort[request.sort.field.toLowerCase()] ?? source.tieBreaker;
  const { pageIndex, pageSize } = request.page;
  const rows = await source.select({
    where,
    orderBy: [direction(sortExpr), direction(source.tieBreaker)],
    limit: pageSize,
    offset: (pageIndex - 1) * pageSize,
  });
  const total = rows.length > 0 ? Number(rows[0].total) : pageIndex > 1 ? await source.count(where) : 0;
  return { rows, total };
}
