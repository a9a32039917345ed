import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { TestServer } from '../helpers/server.js';

/** The built CLI, run as people run it. */
export const bin = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
export const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Milliseconds the process ran. */
  ms: number;
}

export interface CliOptions {
  /** XDG_CONFIG_HOME of the run (a fresh one per test keeps profiles apart). */
  configHome?: string;
  /** Extra environment; undefined removes a variable. */
  env?: Record<string, string | undefined>;
  /** Text piped to stdin; without it stdin is closed (no terminal, nothing to read). */
  input?: string;
  cwd?: string;
  timeoutMs?: number;
}

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function temporaryDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A fresh config folder (XDG_CONFIG_HOME) for one test; removed when the test process ends. */
export function configHome(): string {
  return temporaryDir('idsvc-cli-home-');
}

/** A fresh folder for files a test writes; removed when the test process ends. */
export function workDir(): string {
  return temporaryDir('idsvc-cli-work-');
}

/** The environment of the test process without anything that would point the CLI elsewhere. */
function cleanEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('IDSVC_') || key === 'XDG_CONFIG_HOME' || key === 'FORCE_COLOR') continue;
    out[key] = value;
  }
  return out;
}

/** Runs `idsvc args…` without a terminal; never throws for a non-zero exit. */
export async function idsvc(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = { ...cleanEnv(), NO_COLOR: '1' };
  env.XDG_CONFIG_HOME = options.configHome ?? configHome();
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const started = performance.now();
  const result = await execa('node', [bin, ...args], {
    env,
    extendEnv: false,
    cwd: options.cwd,
    reject: false,
    stripFinalNewline: false,
    timeout: options.timeoutMs ?? 120_000,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
  return {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    ms: performance.now() - started,
  };
}

/** Logs the bootstrap administrator in with a profile in `home` (password on stdin). */
export async function loginAdmin(server: TestServer, home: string): Promise<void> {
  const result = await idsvc(['--url', server.url, 'login', '-u', 'admin', '--password-stdin'], {
    configHome: home,
    input: server.adminPassword,
  });
  if (result.exitCode !== 0) throw new Error(`login failed: ${result.exitCode} ${result.stderr}`);
}

/** Parses stdout as JSON, with the output in the message when it is not JSON. */
export function json<T = unknown>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
  }
}

/** Runs `fn` over `items` with at most `limit` at once, keeping the order of the results. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return out;
}
