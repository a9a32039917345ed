import { randomBytes } from 'node:crypto';
import { SigningKeys, type SigningKeysOptions } from '../auth/signing-keys.js';
import { type Config, loadConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { SecretBox } from '../crypto/secret-box.js';
import { migrate } from '../db/migrate.js';
import { seed } from '../db/seed.js';
import { createLogger, type Logger } from '../http/logger.js';
import { openTestDatabase } from './database.js';

export const TEST_ADMIN_PASSWORD = 'admin-pass-123!';
export const TEST_BASE_URL = 'http://127.0.0.1:0';

export interface TestContextOptions {
  /** Configuration values over the test defaults (data dir in a temp folder, admin password, silent logs). */
  config?: Partial<Config>;
  /** Seed the built-in objects (default true). */
  seed?: boolean;
  logger?: Logger;
  baseUrl?: string;
  keys?: SigningKeysOptions;
}

export interface TestContext extends AppContext {
  /** The temp folder holding the database; removed by `close`. */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * An AppContext over a fresh embedded database in a temp folder: migrated, seeded (admin password
 * `admin-pass-123!`), a random secret key, signing keys loaded. About 3 s; share one per test file.
 */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const test = await openTestDatabase();
  const { database, dataDir } = test;
  const config = {
    ...loadConfig({ dataDir, adminPassword: TEST_ADMIN_PASSWORD, logLevel: 'silent' }, {}),
    ...options.config,
  };
  const logger = options.logger ?? createLogger('silent');
  try {
    await migrate(database);
    if (options.seed !== false) await seed({ db: database.db, config, logger });
    const box = new SecretBox(randomBytes(32));
    const keys = await SigningKeys.load(database.db, box, options.keys);
    const baseUrl = options.baseUrl ?? TEST_BASE_URL;
    return {
      config,
      database,
      db: database.db,
      box,
      keys,
      logger,
      baseUrl: () => baseUrl,
      dataDir,
      close: () => test.close(),
    };
  } catch (error) {
    await test.close();
    throw error;
  }
}
