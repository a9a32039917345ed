import type { DbOrTx } from './client.js';

/**
 * A query built once per database handle and run many times with placeholders (Drizzle's `prepare`): for the hot
 * paths of sign-in, where building the SQL anew costs more than running it. A transaction handle gets its own.
 */
export function preparedQuery<Q>(build: (db: DbOrTx) => Q): (db: DbOrTx) => Q {
  const built = new WeakMap<DbOrTx, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
