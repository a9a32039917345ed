import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { systemState } from '../db/schema/index.js';
import type { Logger } from '../http/logger.js';

export const SECRET_KEY_FILE = 'secret.key';
export const SECRET_KEY_STATE = 'secret_key';

/**
 * The 32-byte key that seals secrets at rest: IDSVC_SECRET_KEY when set; otherwise one generated once and kept in
 * the data dir (embedded database) or in the database itself (PostgreSQL, where every instance reads the same one).
 */
export async function resolveSecretKey(config: Config, database: Database, logger: Logger): Promise<Buffer> {
  if (config.secretKey) return decodeKey(config.secretKey, 'IDSVC_SECRET_KEY');
  if (database.kind === 'embedded') return fileKey(config.dataDir);
  const key = await databaseKey(database);
  logger.warn('IDSVC_SECRET_KEY is not set: the secret key is kept in the database beside the data it protects', {
    hint: 'set IDSVC_SECRET_KEY (base64 of 32 bytes) to keep the key apart from the data',
  });
  return key;
}

function decodeKey(base64: string, source: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${source} does not hold base64 of 32 bytes`);
  return key;
}

/** Reads `secret.key` from the data dir, creating it (mode 0600) the first time. */
function fileKey(dataDir: string): Buffer {
  const path = join(dataDir, SECRET_KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decodeKey(readFileSync(path, 'utf8'), path);
}

/** Inserts a generated key unless one exists, then reads back whichever won, so instances agree. */
async function databaseKey(database: Database): Promise<Buffer> {
  const { db } = database;
  await db
    .insert(systemState)
    .values({ key: SECRET_KEY_STATE, value: randomBytes(32).toString('base64') })
    .onConflictDoNothing();
  const [row] = await db
    .select({ value: systemState.value })
    .from(systemState)
    .where(eq(systemState.key, SECRET_KEY_STATE));
  if (typeof row?.value !== 'string') throw new Error(`system_state.${SECRET_KEY_STATE} does not hold a key`);
  return decodeKey(row.value, `system_state.${SECRET_KEY_STATE}`);
}
