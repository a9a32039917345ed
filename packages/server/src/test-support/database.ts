import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/client.js';

export interface TestDatabase {
  database: Database;
  dataDir: string;
  /** Closes the database and removes it (the temp folder, or the PostgreSQL database). */
  close(): Promise<void>;
}

/**
 * A fresh, empty database for one test file: embedded in a temp folder, or — when DATABASE_URL is configured —
 * a new PostgreSQL database of its own beside the configured one.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idsvc-test-'));
  const serverUrl = loadConfig({ dataDir }).databaseUrl;
  if (!serverUrl) {
    const database = await openDatabase({ dataDir });
    return {
      database,
      dataDir,
      close: async () => {
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `idsvc_unit_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ dataDir, databaseUrl: url.toString() });
  return {
    database,
    dataDir,
    close: async () => {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
