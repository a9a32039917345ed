import type { Connection, ConnectionType, MetadataReference } from '@idsvc/shared';
import { and, eq, getTableColumns, ne, sql } from 'drizzle-orm';
import type { FilterSchema } from '../conventions/filter-sql.js';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { connections, consents } from '../db/schema/index.js';
import { pagedQueries } from './paged-queries.js';
import { lower, nameIs } from './sql.js';

export type ConnectionRow = typeof connections.$inferSelect;

/** What a create or an update writes. */
export type ConnectionValues = Omit<typeof connections.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** Configuration fields never returned (write-only). */
const writeOnly = new Set(['clientSecret']);

/** The API object of a row: secrets left out; an OAuth20 connection's clientId is the column's. */
export function toConnection(row: ConnectionRow): Connection {
  const configuration = Object.fromEntries(Object.entries(row.configuration).filter(([k]) => !writeOnly.has(k)));
  if (row.clientId !== null) configuration.clientId = row.clientId;
  return {
    id: row.id,
    name: row.name,
    connectionType: row.connectionType as ConnectionType,
    pluginType: row.pluginType,
    enabled: row.enabled,
    accessOrganizationName: row.accessOrganizationName,
    entityId: row.entityId,
    configuration,
    scopes: row.scopes,
    claimSets: row.claimSets,
    appliedHomeRealmDiscoveryRules: row.appliedHomeRealmDiscoveryRules,
    dependencyConnectionNames: row.dependencyConnectionNames,
    claimTransformations: row.claimTransformations,
    certificates: row.certificates,
    metadataReference: (row.metadataReference as MetadataReference | null) ?? null,
  };
}

const filter: FilterSchema = {
  attributes: {
    id: { sql: sql`${connections.id}::text`, type: 'string' },
    name: { sql: sql`${connections.name}`, type: 'string' },
    connectiontype: { sql: sql`${connections.connectionType}`, type: 'string' },
    plugintype: { sql: sql`${connections.pluginType}`, type: 'string' },
    enabled: { sql: sql`${connections.enabled}`, type: 'boolean' },
    accessorganizationname: { sql: sql`${connections.accessOrganizationName}`, type: 'string' },
    entityid: { sql: sql`${connections.entityId}`, type: 'string' },
    clientid: { sql: sql`${connections.clientId}`, type: 'string' },
  },
};

export function connectionList(db: DbOrTx): ListSource<ConnectionRow & { total: number }> {
  return {
    filter,
    sort: {
      name: lower(connections.name),
      enabled: connections.enabled,
      accessorganizationname: lower(connections.accessOrganizationName),
    },
    tieBreaker: connections.id,
    ...pagedQueries<ConnectionRow>(
      (fields) => db.select(fields).from(connections).$dynamic(),
      getTableColumns(connections),
    ),
  };
}

export async function findConnection(db: DbOrTx, name: string): Promise<ConnectionRow | undefined> {
  return (await db.select().from(connections).where(nameIs(connections.name, name)).limit(1))[0];
}

/** The connection (other than `exceptId`) that holds the client id, if any. */
export async function findByClientId(
  db: DbOrTx,
  clientId: string,
  exceptId?: string,
): Promise<ConnectionRow | undefined> {
  const where = exceptId
    ? and(eq(connections.clientId, clientId), ne(connections.id, exceptId))
    : eq(connections.clientId, clientId);
  return (await db.select().from(connections).where(where).limit(1))[0];
}

export async function insertConnection(db: DbOrTx, values: ConnectionValues & { id?: string }): Promise<ConnectionRow> {
  const [row] = await db.insert(connections).values(values).returning();
  return row;
}

export async function updateConnection(
  db: DbOrTx,
  id: string,
  values: Partial<ConnectionValues>,
): Promise<ConnectionRow> {
  const [row] = await db
    .update(connections)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(connections.id, id))
    .returning();
  return row;
}

export async function deleteConnection(db: DbOrTx, id: string): Promise<void> {
  await db.delete(connections).where(eq(connections.id, id));
}

/** Names of the other connections that list `name` among their dependencyConnectionNames. */
export async function dependentsOf(db: DbOrTx, name: string): Promise<string[]> {
  const rows = await db
    .select({ name: connections.name })
    .from(connections)
    .where(
      and(
        sql`exists (select 1 from jsonb_array_elements_text(${connections.dependencyConnectionNames}) d where lower(d) = lower(${name}))`,
        sql`lower(${connections.name}) <> lower(${name})`,
      ),
    )
    .orderBy(lower(connections.name))
    .limit(10);
  return rows.map((r) => r.name);
}

/** Deletes every consent given to the connection; the number deleted. */
export async function deleteConsentsOf(db: DbOrTx, connectionId: string): Promise<number> {
  const rows = await db
    .delete(consents)
    .where(eq(consents.connectionId, connectionId))
    .returning({ userId: consents.userId });
  return rows.length;
}
