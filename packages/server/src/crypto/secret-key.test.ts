import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { systemState } from '../db/schema/index.js';
import { createLogger } from '../http/logger.js';
import { resolveSecretKey } from './secret-key.js';

const silent = createLogger('silent');
const embedded = { kind: 'embedded' } as Database;

const made: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'idsvc-key-'));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('resolveSecretKey', () => {
  it('uses IDSVC_SECRET_KEY when it is set', async () => {
    const key = randomBytes(32);
    const config = loadConfig({ dataDir: tempDir(), secretKey: key.toString('base64') }, {});
    expect((await resolveSecretKey(config, embedded, silent)).equals(key)).toBe(true);
  });

  it('creates secret.key (mode 0600) in the data dir once, then reads it', async () => {
    const dataDir = join(tempDir(), 'nested');
    const config = loadConfig({ dataDir }, {});
    const first = await resolveSecretKey(config, embedded, silent);
    expect(first).toHaveLength(32);
    const file = join(dataDir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first)).toBe(true);
    expect((await resolveSecretKey(config, embedded, silent)).equals(first)).toBe(true);
  });

  it('refuses a secret.key that does not hold 32 bytes', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'secret.key'), 'c2hvcnQ=');
    await expect(resolveSecretKey(loadConfig({ dataDir }, {}), embedded, silent)).rejects.toThrow(/32 bytes/);
  });
});

describe('resolveSecretKey with PostgreSQL', () => {
  let dataDir: string;
  let database: Database;

  beforeAll(async () => {
    dataDir = tempDir();
    database = await openDatabase({ dataDir });
    await migrate(database);
  });
  afterAll(() => database.close());

  it('keeps one key in system_state that every instance reads, with a warning', async () => {
    const lines: string[] = [];
    const logger = createLogger('warn', (l) => lines.push(l));
    const postgres: Database = { ...database, kind: 'postgres' };
    const config = loadConfig({ dataDir: join(dataDir, 'unused'), databaseUrl: 'postgres://unused' }, {});
    const [a, b] = await Promise.all([
      resolveSecretKey(config, postgres, logger),
      resolveSecretKey(config, postgres, logger),
    ]);
    expect(a).toHaveLength(32);
    expect(a.equals(b)).toBe(true);
    const rows = await database.db.select().from(systemState);
    expect(rows).toEqual([expect.objectContaining({ key: 'secret_key', value: a.toString('base64') })]);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'warn', msg: expect.stringContaining('kept in the database') });
  });
});
