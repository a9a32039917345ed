import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { inject } from 'vitest';
import { loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/client.js';

export interface TestDatabase {
  database: Database;
  dataDir: string;
  /** Closes the database and removes it (the temp folder, or the PostgreSQL database). */
  close(): Promise<void>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data dir whose embedded database is migrated and holds nothing else (made once per test run). */
    idsvcUnitTemplate?: string;
  }
}

/** The run's migrated embedded database, when the run made one (copying it is much faster than creating one). */
function embeddedTemplate(): string | undefined {
  try {
    return inject('idsvcUnitTemplate');
  } catch {
    return undefined;
  }
}

/**
 * A fresh database for one test file: embedded in a temp folder (a copy of the run's template, already migrated,
 * when there is one), or — when DATABASE_URL is configured — a new, empty PostgreSQL database of its own beside the
 * configured one.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idsvc-test-'));
  const serverUrl = loadConfig({ dataDir }).databaseUrl;
  if (!serverUrl) {
    const template = embeddedTemplate();
    if (template) cpSync(template, dataDir, { recursive: true });
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
