import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { Database } from './client.js';

/** The committed SQL migrations, shipped beside the compiled code. */
export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Advisory lock id that serialises migrations and seeding across instances sharing one database. */
export const SCHEMA_LOCK = 7_301_942;

/** Applies pending migrations. Instances sharing one PostgreSQL database take turns. */
export async function migrate(database: Database): Promise<void> {
  if (database.kind === 'embedded') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK})`);
    await migratePostgres(tx as unknown as PostgresJsDatabase, { migrationsFolder });
  });
}
