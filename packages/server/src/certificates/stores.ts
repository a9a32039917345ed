import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import type { Db, Tx } from '../db/client.js';
import { decodeBase64, type ParsedCertificate, parseCertificate, parseDer, pemBlocks } from './parse.js';

/** A file change made inside a database transaction: finished after the commit, undone when it fails. */
export interface FileChange {
  commit(): Promise<void>;
  undo(): Promise<void>;
}

/**
 * Runs `fn` in a transaction. File changes it reports through `track` are undone (newest first) when the
 * transaction fails, and finished once it has committed; so an audit record and its file write stand or fall together.
 */
export async function withFileChanges<T>(
  db: Db,
  fn: (tx: Tx, track: (change: FileChange) => void) => Promise<T>,
): Promise<T> {
  const changes: FileChange[] = [];
  let result: T;
  try {
    result = await db.transaction((tx) => fn(tx, (change) => changes.push(change)));
  } catch (error) {
    for (const change of changes.reverse()) await change.undo().catch(() => undefined);
    throw error;
  }
  for (const change of changes) await change.commit().catch(() => undefined);
  return result;
}

/** A certificate of a folder store and the files that hold it (one, unless the same one was dropped in twice). */
export interface FolderEntry {
  files: string[];
  cert: ParsedCertificate;
}

/** Adding a certificate whose file exists already (another writer won a race). */
export class FolderConflictError extends Error {
  constructor(readonly thumbprint: string) {
    super(`a certificate with thumbprint ${thumbprint} exists`);
    this.name = 'FolderConflictError';
  }
}

/** Removing a certificate whose file is gone already (another writer removed it meanwhile). */
export class FolderMissingError extends Error {
  constructor(readonly file: string) {
    super(`the certificate file ${file} does not exist`);
    this.name = 'FolderMissingError';
  }
}

const CERTIFICATE_FILE = /^[^.].*\.(cer|crt|der|pem)$/i;
const isMissing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT';
const isExisting = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'EEXIST';
const suffix = () => randomBytes(6).toString('hex');

/** Parses a certificate file: DER bytes, or base64/PEM text. */
function parseFile(bytes: Buffer): ParsedCertificate {
  return bytes[0] === 0x30 ? parseDer(bytes) : parseCertificate(bytes.toString('utf8'));
}

/**
 * The CurrentUser store: a folder of `<THUMBPRINT>.cer` DER files. Files dropped in by hand (`.cer`, `.crt`,
 * `.der`, `.pem`, any name) are read too, by their content; files that are not a certificate are skipped.
 */
export class FolderStore {
  constructor(readonly dir: string) {}

  async entries(): Promise<FolderEntry[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => CERTIFICATE_FILE.test(n)).sort();
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const byThumbprint = new Map<string, FolderEntry>();
    for (const name of names) {
      const file = join(this.dir, name);
      try {
        const cert = parseFile(await readFile(file));
        const entry = byThumbprint.get(cert.thumbprint);
        if (entry) entry.files.push(file);
        else byThumbprint.set(cert.thumbprint, { files: [file], cert });
      } catch {
        // unreadable or not a certificate (or removed meanwhile): not part of the store
      }
    }
    return [...byThumbprint.values()];
  }

  async certificates(): Promise<ParsedCertificate[]> {
    return (await this.entries()).map((e) => e.cert);
  }

  /** Writes `<THUMBPRINT>.cer` files, each atomically and only when absent; all or none. */
  async add(certs: readonly ParsedCertificate[]): Promise<FileChange> {
    await mkdir(this.dir, { recursive: true });
    const written: string[] = [];
    const undo = async () => {
      for (const file of written) await unlink(file).catch(() => undefined);
    };
    try {
      for (const cert of certs) {
        const file = join(this.dir, `${cert.thumbprint}.cer`);
        const temp = join(this.dir, `.${cert.thumbprint}.${suffix()}.tmp`);
        await writeFile(temp, cert.der, { flag: 'wx' });
        try {
          await link(temp, file);
        } catch (error) {
          if (isExisting(error)) throw new FolderConflictError(cert.thumbprint);
          throw error;
        } finally {
          await unlink(temp).catch(() => undefined);
        }
        written.push(file);
      }
    } catch (error) {
      await undo();
      throw error;
    }
    return { commit: async () => {}, undo };
  }

  /** Moves the entries' files aside; the commit deletes them, undo puts them back. */
  async remove(entries: readonly FolderEntry[]): Promise<FileChange> {
    const moved: { file: string; aside: string }[] = [];
    const undo = async () => {
      for (const { file, aside } of moved.reverse()) await rename(aside, file).catch(() => undefined);
    };
    try {
      for (const file of entries.flatMap((e) => e.files)) {
        const aside = join(this.dir, `.deleting-${suffix()}`);
        try {
          await rename(file, aside);
        } catch (error) {
          if (isMissing(error)) throw new FolderMissingError(file);
          throw error;
        }
        moved.push({ file, aside });
      }
    } catch (error) {
      await undo();
      throw error;
    }
    return {
      commit: async () => {
        for (const { aside } of moved) await unlink(aside).catch(() => undefined);
      },
      undo,
    };
  }
}

/** The system's trust bundle; read when readable, in addition to Node's bundled roots. */
export const SYSTEM_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/**
 * Parses PEM texts into certificates, each distinct DER once (by its digest, before parsing); yields to the
 * event loop now and then so that a first read of a large bundle does not stall other requests.
 */
export async function parseTrustBundles(texts: readonly string[]): Promise<ParsedCertificate[]> {
  const seen = new Set<string>();
  const out: ParsedCertificate[] = [];
  let count = 0;
  for (const text of texts) {
    for (const block of pemBlocks(text)) {
      if (block.label !== 'CERTIFICATE') continue;
      try {
        const der = decodeBase64(block.body);
        const key = der.toString('base64');
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(parseDer(der));
      } catch {
        // a damaged entry of a bundle must not hide the others
      }
      if (++count % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return out;
}

/** Reads a file's text, or undefined when it is missing or unreadable. */
async function readIfReadable(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A loader of the LocalMachine store (the operating system's trusted roots: Node's bundled roots plus the system
 * bundle), read-only. The first call parses; later calls answer the same list from memory.
 */
export function trustedRoots(bundlePaths: readonly string[] = [SYSTEM_BUNDLE]): () => Promise<ParsedCertificate[]> {
  let loaded: Promise<ParsedCertificate[]> | undefined;
  return () => {
    loaded ??= (async () => {
      const bundles = await Promise.all(bundlePaths.map(readIfReadable));
      const texts = [...rootCertificates, ...bundles.filter((t): t is string => t !== undefined)];
      return parseTrustBundles(texts);
    })().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}

/** The process-wide LocalMachine store: parsed once, shared by every service instance. */
export const localMachineRoots = trustedRoots();
