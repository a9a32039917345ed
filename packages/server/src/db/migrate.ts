import { fileURLToPath } from 'node:url';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
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
  // One connection of its own holds a session lock while the migrator runs its own transaction on it.
  const client = postgres(database.url!, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${SCHEMA_LOCK})`;
    await migratePostgres(drizzle({ client }), { migrationsFolder });
  } finally {
    await client`select pg_advisory_unlock(${SCHEMA_LOCK})`.catch(() => {});
    await client.end({ timeout: 5 });
  }
}
