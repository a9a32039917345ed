import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The one database type every query module takes, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle is a Db too; queries take either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  kind: 'embedded' | 'postgres';
  /** PostgreSQL only: the connection string (migrations open a connection of their own). */
  url?: string;
  db: Db;
  /** Resolves while the database answers. */
  ping(): Promise<void>;
  /**
   * Tells the database that many rows were written. The embedded database has no autovacuum, so it refreshes the
   * planner's statistics itself once enough has changed; PostgreSQL's autovacuum does that on its own.
   */
  noteWrites(rows: number): void;
  /**
   * Makes the space of deleted and updated rows reusable. The embedded database has no autovacuum, so housekeeping
   * calls this after each run (a VACUUM: pages unchanged since the last one are skipped); on PostgreSQL autovacuum
   * does it and this does nothing.
   */
  vacuum(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openEmbedded(options.dataDir);
}

async function openEmbedded(dataDir: string): Promise<Database> {
  const dir = join(dataDir, 'pgdata');
  mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    kind: 'embedded',
    db,
    noteWrites: statisticsKeeper(client),
    vacuum: async () => {
      await client.exec('vacuum');
    },
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<Database> {
  const client = postgres(url, { max: 10, onnotice: () => {}, connect_timeout: 10 });
  const db = drizzlePostgres({ client, schema }) as unknown as Db;
  return {
    kind: 'postgres',
    url,
    db,
    noteWrites: () => {},
    vacuum: async () => {},
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/** Runs ANALYZE in the background once the rows written since the last one reach a fifth of all written. */
function statisticsKeeper(client: PGlite): (rows: number) => void {
  let since = 0;
  let total = 0;
  let running = false;
  return (rows) => {
    since += rows;
    total += rows;
    if (running || since < Math.max(2000, total / 5)) return;
    running = true;
    since = 0;
    client
      .exec('analyze')
      .catch(() => {})
      .finally(() => {
        running = false;
      });
  };
}

/** The PostgreSQL error code (SQLSTATE) of a failed query, looking through wrapper errors. */
export function sqlState(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
