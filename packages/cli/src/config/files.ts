import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from '../errors.js';

/** Reads a JSON file; undefined when it does not exist. A file that is not JSON is an error naming the file. */
export function readJsonFile<T>(path: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new CliError(`${path} is not valid JSON; fix or remove it`);
  }
}

/** Writes JSON readable only by the owner (mode 0600, folder 0700), atomically: a reader never sees half a file. */
export function writePrivateJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

const lockWaitMs = 15_000;
const staleLockMs = 30_000;

/**
 * Runs `fn` holding an exclusive lock file beside `path`, so that concurrent idsvc processes do not both spend the
 * same refresh token (a spent one revokes its whole family). A lock older than 30 s is taken over.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  mkdirSync(dirname(lock), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + lockWaitMs;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > staleLockMs) rmSync(lock, { force: true });
      } catch {
        // the holder removed it meanwhile
      }
      if (Date.now() > deadline) throw new CliError(`could not lock ${lock}; remove it if no idsvc is running`);
      await sleep(25 + Math.random() * 50);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}
