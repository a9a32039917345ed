import { readFile } from 'node:fs/promises';
import { CliError, exitCodes, UsageError } from './errors.js';

/** Reads all of stdin as text. */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('reading from stdin (-), but stdin is a terminal; pipe the input in');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The text of FILE, or of stdin for `-`. A missing file is a usage error. */
export async function readTextFile(file: string): Promise<string> {
  if (file === '-') return readStdin();
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(error))}`);
  }
}

/** JSON, else YAML (JSON is YAML too, but JSON.parse is faster and its errors clearer for JSON). */
export async function parseJsonOrYaml(text: string, source: string): Promise<unknown> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('"')) {
    try {
      return JSON.parse(trimmed);
    } catch (error) {
      if (/\.json$/i.test(source)) throw new CliError(`${source}: ${(error as Error).message}`, exitCodes.usage);
    }
  }
  const YAML = await import('yaml');
  try {
    return YAML.parse(text);
  } catch (error) {
    throw new CliError(`${source}: not JSON or YAML: ${(error as Error).message.split('\n')[0]}`, exitCodes.usage);
  }
}

export interface BodyOptions {
  file?: string;
  data?: string;
}

/** The request body of `-f FILE` (JSON or YAML, `-` for stdin) or `-d JSON`; undefined when neither is given. */
export async function readBody(options: BodyOptions): Promise<unknown> {
  if (options.file !== undefined && options.data !== undefined) throw new UsageError('give -f or -d, not both');
  if (options.data !== undefined) {
    try {
      return JSON.parse(options.data);
    } catch (error) {
      throw new UsageError(`-d is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (options.file !== undefined) {
    const source = options.file === '-' ? 'stdin' : options.file;
    return parseJsonOrYaml(await readTextFile(options.file), source);
  }
  return undefined;
}
