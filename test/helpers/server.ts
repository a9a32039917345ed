import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import postgres from 'postgres';

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
}

export interface StartOptions {
  /** Extra environment for the server process (wins over the defaults below). */
  env?: Record<string, string>;
}

const cliBin = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
const startTimeoutMs = 60_000;
const stopTimeoutMs = 15_000;
const listeningLine = /listening on (http:\/\/\S+)/;

/** Starts `idsvc serve` on a free port over a fresh data dir (and a fresh database when DATABASE_URL is set). */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idsvc-e2e-'));
  const database = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : undefined;
  const env = {
    IDSVC_ADMIN_PASSWORD: `Adm1n!${randomBytes(12).toString('base64url')}`,
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
    return { url, adminPassword: env.IDSVC_ADMIN_PASSWORD, stop: cleanUp, stderr: () => stderr };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty PostgreSQL database beside the one DATABASE_URL names. */
async function createDatabase(adminUrl: string): Promise<TestDatabase> {
  const name = `idsvc_e2e_${randomBytes(6).toString('hex')}`;
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await sql.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
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
