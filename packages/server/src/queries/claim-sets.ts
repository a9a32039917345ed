import type { ClaimSet } from '@idsvc/shared';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { FilterSchema } from '../conventions/filter-sql.js';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { claimSets, connections } from '../db/schema/index.js';
import { pagedQueries } from './paged-queries.js';
import { lower, nameIs } from './sql.js';

export type ClaimSetRow = typeof claimSets.$inferSelect;

/** What a create or update stores. */
export interface ClaimSetValues {
  name: string;
  description: string | null;
  claimTypes: string[];
}

export const toClaimSet = (row: ClaimSetRow): ClaimSet => ({
  id: row.id,
  name: row.name,
  description: row.description,
  claimTypes: row.claimTypes,
});

const t = claimSets;

const filter: FilterSchema = {
  attributes: {
    id: { sql: sql`${t.id}::text`, type: 'string' },
    name: { sql: sql`${t.name}`, type: 'string' },
    description: { sql: sql`${t.description}`, type: 'string' },
  },
  multiValued: {
    claimtypes: {
      exists: (condition) =>
        sql`exists (select 1 from jsonb_array_elements_text(${t.claimTypes}) as v(value) where ${condition})`,
      sub: { value: { sql: sql`v.value`, type: 'string' } },
      primary: 'value',
    },
  },
};

export function claimSetList(db: DbOrTx): ListSource<ClaimSetRow & { total: number }> {
  return {
    filter,
    sort: { name: lower(t.name), id: t.id },
    tieBreaker: t.id,
    ...pagedQueries<ClaimSetRow>((fields) => db.select(fields).from(t).$dynamic(), getTableColumns(t)),
  };
}

export async function findClaimSet(db: DbOrTx, name: string): Promise<ClaimSetRow | undefined> {
  return (await db.select().from(t).where(nameIs(t.name, name)).limit(1))[0];
}

/** `id` must be in GUID form. */
export async function findClaimSetById(db: DbOrTx, id: string): Promise<ClaimSetRow | undefined> {
  return (await db.select().from(t).where(eq(t.id, id)).limit(1))[0];
}

export async function insertClaimSet(db: DbOrTx, values: ClaimSetValues, id?: string): Promise<ClaimSetRow> {
  const [row] = await db
    .insert(t)
    .values({ ...(id ? { id } : {}), ...values })
    .returning();
  return row;
}

export async function updateClaimSet(db: DbOrTx, id: string, values: ClaimSetValues): Promise<ClaimSetRow> {
  const [row] = await db
    .update(t)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(t.id, id))
    .returning();
  return row;
}

/** Names of the connections whose `claimSets` name the claim set, case-insensitively. */
export async function connectionsUsingClaimSet(db: DbOrTx, name: string): Promise<string[]> {
  const listed = sql`exists (select 1 from jsonb_array_elements_text(${connections.claimSets}) c where lower(c) = lower(${name}))`;
  const rows = await db
    .select({ name: connections.name })
    .from(connections)
    .where(listed)
    .orderBy(lower(connections.name));
  return rows.map((r) => r.name);
}

export async function deleteClaimSet(db: DbOrTx, id: string): Promise<void> {
  await db.delete(t).where(eq(t.id, id));
}
