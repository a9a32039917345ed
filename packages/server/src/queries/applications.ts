import type { Application } from '@idsvc/shared';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { FilterSchema } from '../conventions/filter-sql.js';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { connections } from '../db/schema/index.js';
import { pagedQueries } from './paged-queries.js';
import { lower } from './sql.js';

type Row = typeof connections.$inferSelect;

/** Applications are the protocol connections. */
export const isApplication = eq(connections.connectionType, 'Protocol');

export function toApplication(row: Row): Application {
  const description = row.configuration.description;
  return {
    name: row.name,
    description: typeof description === 'string' ? description : null,
    protocolConnectionName: row.name,
    pluginType: row.pluginType,
    clientId: row.clientId ?? row.entityId ?? null,
    enabled: row.enabled,
  };
}

const filter: FilterSchema = {
  attributes: {
    name: { sql: sql`${connections.name}`, type: 'string' },
    plugintype: { sql: sql`${connections.pluginType}`, type: 'string' },
    enabled: { sql: sql`${connections.enabled}`, type: 'boolean' },
  },
};

/** The protocol connections as a list source; pass `isApplication` as the fixed condition of `runList`. */
export function applicationList(db: DbOrTx): ListSource<Row & { total: number }> {
  return {
    filter,
    sort: { name: lower(connections.name) },
    tieBreaker: connections.id,
    ...pagedQueries<Row>((fields) => db.select(fields).from(connections).$dynamic(), getTableColumns(connections)),
  };
}
