import { open } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MetadataReference } from '@idsvc/shared';
import { Agent, interceptors, request } from 'undici';
import { ApiError, badRequest } from '../http/api-error.js';

/** Limits on fetching metadata from an address or reading it from a file. */
export interface MetadataSourceOptions {
  /** Connect, headers and body timeouts of a fetch, each (default 10 s). */
  timeoutMs?: number;
  /** Largest document accepted (default 5 MiB). */
  maxBytes?: number;
}

const defaults = { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024 };

/** Whether the reference names metadata (non-blank XML or address). */
export function hasMetadata(ref: MetadataReference | null | undefined): boolean {
  return Boolean(ref?.metadataXml?.trim() || ref?.metadataFileUri?.trim());
}

/**
 * The metadata document a reference names: `metadataXml` itself, or the content at `metadataFileUri` (an
 * http(s) address, a `file:` URL or an absolute path). Undefined when the reference names none. Anything that
 * cannot be read is a 400 naming the reason.
 */
export async function loadMetadata(
  ref: MetadataReference | null | undefined,
  options: MetadataSourceOptions = {},
): Promise<string | undefined> {
  const xml = ref?.metadataXml?.trim();
  if (xml) return xml;
  const uri = ref?.metadataFileUri?.trim();
  if (!uri) return undefined;
  const limits = { ...defaults, ...options };
  if (/^https?:\/\//i.test(uri)) return fetchMetadata(uri, limits);
  return readMetadataFile(filePathOf(uri), limits.maxBytes);
}

function filePathOf(uri: string): string {
  if (/^file:/i.test(uri)) {
    try {
      return fileURLToPath(uri);
    } catch {
      throw badRequest(`metadataFileUri ${uri} is not a valid file: URL`);
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) {
    throw badRequest('metadataFileUri must be an http(s) address, a file: URL or an absolute file path');
  }
  if (!path.isAbsolute(uri)) throw badRequest(`metadataFileUri ${uri} must be an absolute file path`);
  return uri;
}

async function readMetadataFile(file: string, maxBytes: number): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' ? 'access is denied' : code;
    throw badRequest(`the metadata file ${file} cannot be read: ${reason}`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw badRequest(`the metadata file ${file} is not a file`);
    if (stat.size > maxBytes) throw badRequest(`the metadata file ${file} is larger than ${maxBytes} bytes`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

async function fetchMetadata(url: string, limits: { timeoutMs: number; maxBytes: number }): Promise<string> {
  const agent = new Agent({ connect: { timeout: limits.timeoutMs } });
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: 3 }));
  try {
    const response = await request(url, {
      dispatcher,
      method: 'GET',
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml, */*' },
      headersTimeout: limits.timeoutMs,
      bodyTimeout: limits.timeoutMs,
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump();
      throw badRequest(`fetching the metadata from ${url} answered HTTP ${response.statusCode}`);
    }
    const declared = Number(response.headers['content-length'] ?? Number.NaN);
    if (declared > limits.maxBytes) {
      await response.body.dump();
      throw tooLarge(url, limits.maxBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > limits.maxBytes) {
        response.body.destroy();
        throw tooLarge(url, limits.maxBytes);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw badRequest(`the metadata cannot be fetched from ${url}: ${reason}`);
  } finally {
    await agent.close().catch(() => undefined);
  }
}

const tooLarge = (url: string, maxBytes: number) =>
  badRequest(`the metadata at ${url} is larger than ${maxBytes} bytes`);
