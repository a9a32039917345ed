import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../packages/server/src/db/client.js';
import { migrate } from '../packages/server/src/db/migrate.js';
import { type ServerTemplate, startServer } from './helpers/server.js';

/**
 * Starts the server once over an empty database and keeps what it leaves behind (the migrated, seeded data dir,
 * or PostgreSQL database) as a template that each test's server starts from, instead of migrating and seeding
 * from nothing every time.
 */
export default async function setup(project: TestProject) {
  const removeUnitTemplate = await provideUnitTemplate(project);
  const adminPassword = `Adm1n!${randomBytes(12).toString('base64url')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idsvc-template-'));
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({ env: { IDSVC_ADMIN_PASSWORD: adminPassword }, dataDir, keep: true });
    await server.stop();
  } catch (error) {
    // Without a template every test server starts from nothing (and says why it cannot start, if it cannot).
    console.warn(`no server template: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    return removeUnitTemplate;
  }
  const template: ServerTemplate = { dataDir, adminPassword, database: server.databaseName };
  project.provide('idsvcTemplate', template);
  return async () => {
    removeUnitTemplate();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (server.dropDatabase) await server.dropDatabase();
  };
}

/**
 * Over the embedded database, migrates one database that each unit test's context copies (creating an embedded
 * database takes seconds, copying one a fraction of that). Returns what removes it.
 */
async function provideUnitTemplate(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL) return () => {};
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idsvc-unit-template-'));
  const remove = () => fs.rmSync(dataDir, { recursive: true, force: true });
  const database = await openDatabase({ dataDir });
  try {
    await migrate(database);
  } finally {
    await database.close();
  }
  project.provide('idsvcUnitTemplate', dataDir);
  return remove;
}
