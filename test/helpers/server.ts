import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import postgres from 'postgres';
import { inject } from 'vitest';

/** A server process started for one test file. */
export interface TestServer {
  /** Base address, e.g. `http://127.0.0.1:43127`. */
  url: string;
  /** Password of the bootstrap administrator `admin`. */
  adminPassword: string;
  /** Sends SIGTERM, waits for the exit and removes the data dir (and the PostgreSQL database). Never throws. */
  stop(): Promise<void>;
  /** Everything the process wrote on stderr so far. */
  stderr(): string;
  /** PostgreSQL: the database's name, and a way to drop it (for a kept database). */
  databaseName?: string;
  dropDatabase?: () => Promise<void>;
}

export interface StartOptions {
  /** Extra environment for the server process (wins over the defaults below). */
  env?: Record<string, string>;
  /** Use this data dir (default: a fresh temp folder). */
  dataDir?: string;
  /** Keep the data dir and the database when stopping (the template is made this way). */
  keep?: boolean;
}

/** A migrated, seeded starting point made once per test run (test/global-setup.ts). */
export interface ServerTemplate {
  dataDir: string;
  adminPassword: string;
  /** PostgreSQL: the template database's name. */
  database?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    idsvcTemplate: ServerTemplate;
  }
}

/** The run's template, unless the caller's environment changes what seeding does (then start from nothing). */
function templateFor(options: StartOptions): ServerTemplate | undefined {
  if (options.dataDir || Object.keys(options.env ?? {}).some((k) => k !== 'IDSVC_LOG_LEVEL')) return undefined;
  try {
    return inject('idsvcTemplate');
  } catch {
    return undefined;
  }
}

const cliBin = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
const startTimeoutMs = 60_000;
const stopTimeoutMs = 15_000;
const listeningLine = /listening on (http:\/\/\S+)/;

/** Starts `idsvc serve` on a free port over a fresh data dir (and a fresh database when DATABASE_URL is set). */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const template = templateFor(options);
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'idsvc-e2e-'));
  const adminUrl = process.env.DATABASE_URL;
  const database = adminUrl ? await createDatabase(adminUrl, template?.database) : undefined;
  if (template && !database) fs.cpSync(template.dataDir, dataDir, { recursive: true });
  const env = {
    IDSVC_ADMIN_PASSWORD: template?.adminPassword ?? `Adm1n!${randomBytes(12).toString('base64url')}`,
    IDSVC_LOG_LEVEL: 'warn',
    ...options.env,
  };
  const args = [cliBin, 'serve', '--port', '0', '--data-dir', dataDir];
  if (database) args.push('--database-url', database.url);

  const child = execa('node', args, { env, cwd: dataDir, reject: false, buffer: false, stdin: 'ignore' });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });

  let exited = false;
  const exit = child.then(() => {
    exited = true;
  });

  const cleanUp = async (): Promise<void> => {
    try {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
        await exit;
        clearTimeout(timer);
      }
      if (options.keep) return;
      if (database) await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    } catch {
      // stopping is best effort: a failed clean-up must not fail the tests
    }
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`server did not print "listening on" within ${startTimeoutMs} ms\n${stderr}`)),
        startTimeoutMs,
      );
      child.stdout?.on('data', (chunk: string) => {
        stdout += chunk;
        const match = listeningLine.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[1].replace(/\/+$/, ''));
        }
      });
      void exit.then(() => {
        clearTimeout(timer);
        reject(new Error(`server exited before listening (exit code ${child.exitCode})\nstderr:\n${stderr}`));
      });
    });
    return {
      url,
      adminPassword: env.IDSVC_ADMIN_PASSWORD,
      stop: cleanUp,
      stderr: () => stderr,
      databaseName: database?.name,
      dropDatabase: database?.drop,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Creates a PostgreSQL database beside the one DATABASE_URL names: empty, or a copy of a template database. */
async function createDatabase(adminUrl: string, template?: string): Promise<TestDatabase> {
  const name = `idsvc_e2e_${randomBytes(6).toString('hex')}`;
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  } finally {
    await sql.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
