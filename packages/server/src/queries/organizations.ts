import type { Organization, OrganizationInput } from '@idsvc/shared';
import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FilterSchema } from '../conventions/filter-sql.js';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { organizations, users } from '../db/schema/index.js';
import { pagedQueries } from './paged-queries.js';
import { countAll, lower, nameIs } from './sql.js';

const parent = alias(organizations, 'parent');
type Row = typeof organizations.$inferSelect & { parentName: string | null };

export const toOrganization = (row: Row): Organization => ({
  name: row.name,
  displayName: row.displayName,
  parentName: row.parentName,
  accessOrganizationName: row.accessOrganizationName,
});

const columns = { ...getTableColumns(organizations), parentName: parent.name };

const filter: FilterSchema = {
  attributes: {
    name: { sql: sql`${organizations.name}`, type: 'string' },
    displayname: { sql: sql`${organizations.displayName}`, type: 'string' },
    parentname: { sql: sql`${parent.name}`, type: 'string' },
    accessorganizationname: { sql: sql`${organizations.accessOrganizationName}`, type: 'string' },
  },
};

function selectRows(db: DbOrTx) {
  return db.select(columns).from(organizations).leftJoin(parent, eq(organizations.parentId, parent.id));
}

export function organizationList(db: DbOrTx): ListSource<Row & { total: number }> {
  return {
    filter,
    sort: { name: lower(organizations.name), accessorganizationname: lower(organizations.accessOrganizationName) },
    tieBreaker: organizations.id,
    ...pagedQueries<Row>(
      (fields) =>
        db.select(fields).from(organizations).leftJoin(parent, eq(organizations.parentId, parent.id)).$dynamic(),
      columns,
    ),
  };
}

export async function findOrganization(db: DbOrTx, name: string): Promise<Row | undefined> {
  return (await selectRows(db).where(nameIs(organizations.name, name)).limit(1))[0];
}

export async function childOrganizations(db: DbOrTx, id: string): Promise<Row[]> {
  return selectRows(db).where(eq(organizations.parentId, id)).orderBy(lower(organizations.name));
}

/** Ids of the organization and all its descendants. */
export async function subtreeIds(db: DbOrTx, id: string): Promise<string[]> {
  const rows = await db.execute<{ id: string }>(sql`
    with recursive tree(id) as (
      select ${id}::uuid
      union
      select o.id from ${organizations} o join tree t on o.parent_id = t.id
    ) select id from tree`);
  const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: { id: string }[] }).rows;
  return list.map((r) => r.id);
}

export interface OrganizationValues {
  input: OrganizationInput;
  parentId: string | null;
}

export async function insertOrganization(db: DbOrTx, { input, parentId }: OrganizationValues): Promise<void> {
  await db.insert(organizations).values({
    name: input.name,
    displayName: input.displayName ?? null,
    parentId,
    accessOrganizationName: input.accessOrganizationName ?? null,
  });
}

export async function updateOrganization(db: DbOrTx, id: string, { input, parentId }: OrganizationValues) {
  await db
    .update(organizations)
    .set({
      displayName: input.displayName ?? null,
      parentId,
      accessOrganizationName: input.accessOrganizationName ?? null,
      updatedAt: sql`now()`,
    })
    .where(eq(organizations.id, id));
}

/** Why an organization may not be deleted: users in it, or child organizations. */
export async function organizationUse(db: DbOrTx, org: Row): Promise<string | undefined> {
  if (!org.parentId) return `the organization ${org.name} is the root`;
  const [members] = await db.select({ n: countAll() }).from(users).where(eq(users.organizationId, org.id));
  if (members.n > 0) return `the organization ${org.name} has ${members.n} user(s)`;
  const hasChildren: SQL = eq(organizations.parentId, org.id);
  const [children] = await db.select({ n: countAll() }).from(organizations).where(hasChildren);
  return children.n > 0 ? `the organization ${org.name} has ${children.n} child organization(s)` : undefined;
}

export async function deleteOrganization(db: DbOrTx, id: string): Promise<void> {
  await db.delete(organizations).where(eq(organizations.id, id));
}
