import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { FilterAttribute, FilterSchema, ScalarType } from '../conventions/filter-sql.js';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import type { applications } from '../db/schema/index.js';
import { pagedQueries } from './paged-queries.js';
import { lower, nameIs } from './sql.js';

/** Any of the named-document tables (they share one shape). */
export type DocumentTable = typeof applications;
export type DocumentRow = DocumentTable['$inferSelect'];

/** A field of a document resource: where it lives and its type for filters and sorting. */
export interface DocumentField {
  type: ScalarType;
}

/** SQL of one field: the key is the `name` column, `id` the id column, everything else `data->>'field'`, cast by type. */
export function fieldSql(table: DocumentTable, keyField: string, field: string, type: ScalarType): SQL {
  if (field === keyField) return sql`${table.name}`;
  if (field === 'id') return sql`${table.id}::text`;
  const text = sql`(${table.data}->>${field})`;
  switch (type) {
    case 'boolean':
      return sql`${text}::boolean`;
    case 'number':
      return sql`${text}::numeric`;
    case 'datetime':
      return sql`${text}::timestamptz`;
    default:
      return text;
  }
}

export function documentList(
  db: DbOrTx,
  table: DocumentTable,
  keyField: string,
  fields: Record<string, DocumentField>,
): ListSource<DocumentRow & { total: number }> {
  const attributes: Record<string, FilterAttribute> = {};
  const sort: Record<string, SQL> = {};
  for (const [name, { type }] of Object.entries(fields)) {
    const expr = fieldSql(table, keyField, name, type);
    attributes[name.toLowerCase()] = { sql: expr, type };
    sort[name.toLowerCase()] = type === 'string' ? lower(expr) : expr;
  }
  attributes.id = { sql: sql`${table.id}::text`, type: 'string' };
  const filter: FilterSchema = { attributes };
  return {
    filter,
    sort,
    tieBreaker: table.id,
    ...pagedQueries<DocumentRow>((fields) => db.select(fields).from(table).$dynamic(), getTableColumns(table)),
  };
}

export async function findDocument(db: DbOrTx, table: DocumentTable, name: string): Promise<DocumentRow | undefined> {
  return (await db.select().from(table).where(nameIs(table.name, name)).limit(1))[0];
}

export async function findDocumentById(db: DbOrTx, table: DocumentTable, id: string): Promise<DocumentRow | undefined> {
  return (await db.select().from(table).where(eq(table.id, id)).limit(1))[0];
}

export async function findDocumentWhere(
  db: DbOrTx,
  table: DocumentTable,
  where: SQL,
): Promise<DocumentRow | undefined> {
  return (await db.select().from(table).where(where).limit(1))[0];
}

export async function allDocuments(db: DbOrTx, table: DocumentTable): Promise<DocumentRow[]> {
  return db.select().from(table).orderBy(lower(table.name));
}

export async function insertDocument(
  db: DbOrTx,
  table: DocumentTable,
  values: { id?: string; name: string; data: Record<string, unknown> },
): Promise<DocumentRow> {
  const [row] = await db.insert(table).values(values).returning();
  return row;
}

export async function updateDocument(
  db: DbOrTx,
  table: DocumentTable,
  id: string,
  values: { name?: string; data: Record<string, unknown> },
): Promise<DocumentRow> {
  const [row] = await db
    .update(table)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(table.id, id))
    .returning();
  return row;
}

export async function deleteDocument(db: DbOrTx, table: DocumentTable, id: string): Promise<void> {
  await db.delete(table).where(eq(table.id, id));
}
