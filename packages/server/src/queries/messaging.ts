import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { smsGateways } from '../db/schema/index.js';
import { type DocumentRow, type DocumentTable, findDocumentWhere } from './documents.js';

/** `data->>'field'` read as a boolean (absent is false). */
const flag = (table: DocumentTable, field: string): SQL => sql`coalesce((${table.data}->>${field})::boolean, false)`;

/** Clears the boolean `field` of every document of the table except the named one (case-insensitive). */
export async function clearOtherFlags(db: DbOrTx, table: DocumentTable, field: string, except: string): Promise<void> {
  await db
    .update(table)
    .set({ data: sql`jsonb_set(${table.data}, ${`{${field}}`}::text[], 'false'::jsonb)`, updatedAt: sql`now()` })
    .where(sql`${flag(table, field)} and lower(${table.name}) <> lower(${except})`);
}

/** The document whose boolean `field` is set (the default server or gateway), if any. */
export function findFlagged(db: DbOrTx, table: DocumentTable, field: string): Promise<DocumentRow | undefined> {
  return findDocumentWhere(db, table, flag(table, field));
}

/** A gateway that names the SMS template, if any. */
export function gatewayUsingTemplate(db: DbOrTx, templateName: string): Promise<DocumentRow | undefined> {
  return findDocumentWhere(
    db,
    smsGateways,
    sql`lower(${smsGateways.data}->>'smsTemplateName') = lower(${templateName})`,
  );
}
