import type { Group, GroupInput } from '@idsvc/shared';
import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { FilterSchema } from '../conventions/filter-sql.js';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { claimDefinitions, groups, userGroups } from '../db/schema/index.js';
import { pagedQueries } from './paged-queries.js';
import { countAll, lower, nameIn, nameIs } from './sql.js';

type Row = typeof groups.$inferSelect;

export const toGroup = (row: Row): Group => ({
  name: row.name,
  description: row.description,
  accessOrganizationName: row.accessOrganizationName,
});

const filter: FilterSchema = {
  attributes: {
    name: { sql: sql`${groups.name}`, type: 'string' },
    description: { sql: sql`${groups.description}`, type: 'string' },
    accessorganizationname: { sql: sql`${groups.accessOrganizationName}`, type: 'string' },
  },
};

export function groupList(db: DbOrTx): ListSource<Row & { total: number }> {
  return {
    filter,
    sort: { name: lower(groups.name), accessorganizationname: lower(groups.accessOrganizationName) },
    tieBreaker: groups.id,
    ...pagedQueries<Row>((fields) => db.select(fields).from(groups).$dynamic(), getTableColumns(groups)),
  };
}

export async function findGroup(db: DbOrTx, name: string): Promise<Row | undefined> {
  return (await db.select().from(groups).where(nameIs(groups.name, name)).limit(1))[0];
}

export async function findGroups(db: DbOrTx, names: readonly string[]): Promise<Row[]> {
  if (names.length === 0) return [];
  return db.select().from(groups).where(nameIn(groups.name, names));
}

export async function insertGroup(db: DbOrTx, input: GroupInput): Promise<Row> {
  const [row] = await db
    .insert(groups)
    .values({
      name: input.name,
      description: input.description ?? null,
      accessOrganizationName: input.accessOrganizationName ?? null,
    })
    .returning();
  return row;
}

export async function updateGroup(db: DbOrTx, id: string, input: GroupInput): Promise<Row> {
  const [row] = await db
    .update(groups)
    .set({
      description: input.description ?? null,
      accessOrganizationName: input.accessOrganizationName ?? null,
      updatedAt: sql`now()`,
    })
    .where(eq(groups.id, id))
    .returning();
  return row;
}

/** Why a group may not be deleted: members, or a group claim definition naming it. */
export async function groupUse(db: DbOrTx, group: Row): Promise<string | undefined> {
  const [members] = await db.select({ n: countAll() }).from(userGroups).where(eq(userGroups.groupId, group.id));
  if (members.n > 0) return `the group ${group.name} has ${members.n} member(s)`;
  const byClaim: SQL = sql`exists (select 1 from jsonb_array_elements_text(${claimDefinitions.groupNames}) g where lower(g) = lower(${group.name}))`;
  const [def] = await db
    .select({ claimType: claimDefinitions.claimType })
    .from(claimDefinitions)
    .where(byClaim)
    .limit(1);
  return def ? `the group ${group.name} is used by the claim definition ${def.claimType}` : undefined;
}

export async function deleteGroup(db: DbOrTx, id: string): Promise<void> {
  await db.delete(groups).where(eq(groups.id, id));
}
