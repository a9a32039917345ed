import type { PgSelect, SelectedFields } from 'drizzle-orm/pg-core';
import type { ListSource } from '../conventions/list.js';
import { countAll, totalCount } from './sql.js';

/** A select of the given fields over a resource's FROM clause and joins, open to further clauses (`$dynamic()`). */
export type FromClause = (fields: SelectedFields) => PgSelect;

/**
 * The `select` and `count` of a ListSource whose rows are `columns` over `from`: one page carrying the window count
 * on each row, and the plain count of the matches (asked for only past the last page).
 */
export function pagedQueries<Row>(
  from: FromClause,
  columns: SelectedFields,
): Pick<ListSource<Row & { total: number }>, 'select' | 'count'> {
  return {
    select: async ({ where, orderBy, limit, offset }) =>
      // The rows are `columns` and `total`, which is what the caller's Row type describes.
      (await from({ ...columns, total: totalCount() })
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)) as (Row & { total: number })[],
    count: async (where) => ((await from({ n: countAll() }).where(where)) as { n: number }[])[0].n,
  };
}
