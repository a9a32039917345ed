import { join } from 'node:path';
import type { Certificate, ReadStoreName, UploadCertificateMode, WritableStoreName } from '@idsvc/shared';
import { normaliseThumbprint, type ParsedCertificate } from '../certificates/parse.js';
import {
  FolderConflictError,
  FolderMissingError,
  FolderStore,
  localMachineRoots,
  withFileChanges,
} from '../certificates/stores.js';
import type { AppContext } from '../context.js';
import { Listing, type ListRequest, runList } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { badRequest, conflict, notFound } from '../http/api-error.js';
import * as q from '../queries/certificates.js';
import { uniqueOr409 } from '../queries/errors.js';
import { type AuditEntry, audit } from './audit.js';
import { failure, type Problem, parseUploads, thumbprintItems, type Upload } from './certificate-input.js';
import type { WriteContext } from './write-context.js';

const entityType = 'certificate';

export interface CertificateServiceOptions {
  /** The LocalMachine store (default: the operating system's trusted roots, parsed once per process). */
  localMachine?: () => Promise<ParsedCertificate[]>;
}

export interface DeleteOptions {
  storeName: WritableStoreName;
  /** Delete certificates that connections list; the connections keep listing them (the audit record names them). */
  forceDeleteInUse: boolean;
}

export interface PostManyOptions {
  uploadCertificateMode: UploadCertificateMode;
  /** Absent: DatabaseStore. Only with FromFile. */
  storeName?: WritableStoreName;
}

const where = (store: ReadStoreName) => (store === 'All' ? 'any store' : store);

/**
 * Certificates in three stores: DatabaseStore (the `certificates` table), CurrentUser (a folder of DER files under
 * the data dir) and LocalMachine (the operating system's trusted roots, read-only). A certificate is in use while a
 * connection lists its thumbprint.
 */
export function certificateService(ctx: Pick<AppContext, 'db' | 'config'>, options: CertificateServiceOptions = {}) {
  const { db } = ctx;
  const folder = new FolderStore(join(ctx.config.dataDir, 'certificates', 'CurrentUser'));
  const localMachine = options.localMachine ?? localMachineRoots;

  /** Certificates of the stores other than the database that `store` reads, CurrentUser first, each once. */
  async function otherRows(store: ReadStoreName): Promise<q.CertificateRow[]> {
    const rows: q.CertificateRow[] = [];
    if (store === 'CurrentUser' || store === 'All') {
      rows.push(...(await folder.certificates()).map((c) => q.rowOf(c, 'CurrentUser')));
    }
    if (store === 'LocalMachine' || store === 'All') {
      rows.push(...(await localMachine()).map((c) => q.rowOf(c, 'LocalMachine')));
    }
    const seen = new Set<string>();
    return rows.filter((r) => !seen.has(r.thumbprint) && seen.add(r.thumbprint));
  }

  /** The certificates with these thumbprints in `store`; for All the first of DatabaseStore, CurrentUser, LocalMachine. */
  async function find(store: ReadStoreName, thumbprints: string[]): Promise<Map<string, q.CertificateRow>> {
    const found = new Map<string, q.CertificateRow>();
    const stored = store === 'DatabaseStore' || store === 'All' ? await q.findStoredCertificates(db, thumbprints) : [];
    const others = store === 'DatabaseStore' ? [] : await otherRows(store);
    for (const row of [...stored, ...others]) {
      if (thumbprints.includes(row.thumbprint) && !found.has(row.thumbprint)) found.set(row.thumbprint, row);
    }
    return found;
  }

  async function withUse(tx: DbOrTx, rows: q.CertificateRow[]): Promise<Certificate[]> {
    const used = await q.connectionsUsing(
      tx,
      rows.map((r) => r.thumbprint),
    );
    return rows.map((r) => q.toCertificate(r, used.has(r.thumbprint)));
  }

  /** Stores certificates (free of repeats) in `target`: 409 if any is there already; all or none; audited. */
  async function store(
    items: (Upload & { copiedFrom?: string })[],
    target: WritableStoreName,
    by: WriteContext,
    many: boolean,
  ): Promise<Certificate[]> {
    const certs = items.map((i) => i.cert);
    const rows = certs.map((c) => q.rowOf(c, target));
    const refuseExisting = (present: Set<string>) => {
      const problems: Problem[] = items
        .filter((i) => present.has(i.thumbprint))
        .map((i) => ({
          index: i.index,
          id: i.thumbprint,
          message: `a certificate with thumbprint ${i.thumbprint} exists in ${target}`,
        }));
      if (problems.length > 0) {
        throw failure('conflict', problems, many, `${problems.length} of the certificates exist in ${target}`);
      }
    };
    const entries: AuditEntry[] = items.map(({ cert, copiedFrom }) => ({
      ...by,
      operation: 'create',
      entityType,
      entityKey: cert.thumbprint,
      changes: {
        storeName: target,
        subject: cert.subject,
        issuer: cert.issuer,
        serialNumber: cert.serialNumber,
        validTo: cert.validTo.toISOString(),
        ...(copiedFrom ? { copiedFrom } : {}),
      },
    }));
    if (target === 'DatabaseStore') {
      return db.transaction(async (tx) => {
        const stored = await q.findStoredCertificates(
          tx,
          items.map((i) => i.thumbprint),
        );
        refuseExisting(new Set(stored.map((r) => r.thumbprint)));
        const meanwhile = 'a certificate with the same thumbprint was stored meanwhile';
        await uniqueOr409(() => q.insertCertificates(tx, certs), meanwhile);
        await audit(tx, entries);
        return withUse(tx, rows);
      });
    }
    refuseExisting(new Set((await folder.certificates()).map((c) => c.thumbprint)));
    return withFileChanges(db, async (tx, track) => {
      await audit(tx, entries);
      try {
        track(await folder.add(certs));
      } catch (error) {
        if (error instanceof FolderConflictError) throw conflict(error.message);
        throw error;
      }
      return withUse(tx, rows);
    });
  }

  /** Copies certificates by thumbprint from CurrentUser (first) or LocalMachine into DatabaseStore. */
  async function copyFromWindowStore(list: readonly string[], by: WriteContext): Promise<Certificate[]> {
    const wanted = thumbprintItems(list);
    const current = new Map((await folder.certificates()).map((c) => [c.thumbprint, c]));
    const roots = new Map((await localMachine()).map((c) => [c.thumbprint, c]));
    const missing: Problem[] = [];
    const items: (Upload & { copiedFrom: string })[] = [];
    for (const { index, thumbprint } of wanted) {
      const fromUser = current.get(thumbprint);
      const cert = fromUser ?? roots.get(thumbprint);
      if (cert) items.push({ index, thumbprint, cert, copiedFrom: fromUser ? 'CurrentUser' : 'LocalMachine' });
      else {
        const message = `no certificate with thumbprint ${thumbprint} in CurrentUser or LocalMachine`;
        missing.push({ index, id: thumbprint, message });
      }
    }
    if (missing.length > 0) {
      throw failure('not_found', missing, true, `${missing.length} of the certificates do not exist`);
    }
    return store(items, 'DatabaseStore', by, true);
  }

  /** Deletes from a writable store: 404 if any is missing, 409 if any is in use (unless forced); all or none. */
  async function remove(list: readonly string[], options: DeleteOptions, by: WriteContext, many: boolean) {
    const { storeName, forceDeleteInUse } = options;
    const wanted = list.map((value, index) => ({ index, value, thumbprint: normaliseThumbprint(value) ?? value }));
    const keys = [...new Set(wanted.map((w) => w.thumbprint))];

    /** Refuses missing and (unless forced) used certificates; answers who uses the others. */
    const check = async (tx: DbOrTx, present: Set<string>) => {
      const missing: Problem[] = wanted
        .filter((w) => !present.has(w.thumbprint))
        .map((w) => ({
          index: w.index,
          id: w.thumbprint,
          message: `no certificate with thumbprint ${w.thumbprint} in ${storeName}`,
        }));
      if (missing.length > 0) {
        throw failure('not_found', missing, many, `${missing.length} of the certificates do not exist in ${storeName}`);
      }
      const used = await q.connectionsUsing(tx, keys);
      if (used.size === 0 || forceDeleteInUse) return used;
      const problems: Problem[] = wanted
        .filter((w) => used.has(w.thumbprint))
        .map((w) => ({
          index: w.index,
          id: w.thumbprint,
          message: `the certificate ${w.thumbprint} is in use by the connection(s) ${used.get(w.thumbprint)?.join(', ')}; delete it with forceDeleteInUse=true`,
        }));
      throw failure('conflict', problems, many, `${problems.length} of the certificates are in use`);
    };
    const auditOf = (used: Map<string, string[]>): AuditEntry[] =>
      keys.map((thumbprint) => ({
        ...by,
        operation: 'delete',
        entityType,
        entityKey: thumbprint,
        changes: {
          storeName,
          ...(used.has(thumbprint) ? { forceDeleteInUse: true, usedByConnections: used.get(thumbprint) } : {}),
        },
      }));

    if (storeName === 'DatabaseStore') {
      return db.transaction(async (tx) => {
        const present = new Set((await q.findStoredCertificates(tx, keys)).map((r) => r.thumbprint));
        const used = await check(tx, present);
        await q.deleteCertificates(tx, keys);
        await audit(tx, auditOf(used));
      });
    }
    const entries = (await folder.entries()).filter((e) => keys.includes(e.cert.thumbprint));
    const used = await check(db, new Set(entries.map((e) => e.cert.thumbprint)));
    await withFileChanges(db, async (tx, track) => {
      await audit(tx, auditOf(used));
      try {
        track(await folder.remove(entries));
      } catch (error) {
        if (error instanceof FolderMissingError)
          throw notFound('a certificate was deleted meanwhile; nothing was changed');
        throw error;
      }
    });
  }

  return {
    /** Lists a store (for All the union, each thumbprint once): filter, sort and paging in SQL. */
    async list(storeName: ReadStoreName, request: ListRequest): Promise<Listing<Certificate>> {
      const source = {
        database: storeName === 'DatabaseStore' || storeName === 'All',
        others: storeName === 'DatabaseStore' ? [] : await otherRows(storeName),
      };
      const { rows, total } = await runList(q.certificateList(db, source), request);
      return new Listing(
        rows.map((r) => q.toCertificate(r, r.isInUse)),
        total,
        request,
      );
    },

    async get(thumbprint: string, storeName: ReadStoreName): Promise<Certificate> {
      const key = normaliseThumbprint(thumbprint);
      if (!key) {
        throw notFound(
          `no certificate has the thumbprint ${JSON.stringify(thumbprint)} (40 hexadecimal digits expected)`,
        );
      }
      const row = (await find(storeName, [key])).get(key);
      if (!row) throw notFound(`no certificate with thumbprint ${key} in ${where(storeName)}`);
      return (await withUse(db, [row]))[0];
    },

    /** The certificates with these thumbprints in any store, in the given order; unknown ones are left out. */
    async findMany(thumbprints: readonly string[]): Promise<Certificate[]> {
      const keys = [...new Set(thumbprints.flatMap((t) => normaliseThumbprint(t) ?? []))];
      const found = await find('All', keys);
      return withUse(
        db,
        keys.flatMap((k) => found.get(k) ?? []),
      );
    },

    async create(data: string, storeName: WritableStoreName, by: WriteContext): Promise<Certificate> {
      return (await store(parseUploads([data], false), storeName, by, false))[0];
    },

    async createMany(data: readonly string[], options: PostManyOptions, by: WriteContext): Promise<Certificate[]> {
      if (options.uploadCertificateMode === 'FromFile') {
        return store(parseUploads(data, true), options.storeName ?? 'DatabaseStore', by, true);
      }
      if (options.storeName !== undefined) {
        throw badRequest(
          'storeName is not allowed with uploadCertificateMode=FromWindowStore: it copies certificates from ' +
            'CurrentUser or LocalMachine into DatabaseStore',
        );
      }
      return copyFromWindowStore(data, by);
    },

    delete: (thumbprint: string, options: DeleteOptions, by: WriteContext) => remove([thumbprint], options, by, false),

    deleteMany: (thumbprints: readonly string[], options: DeleteOptions, by: WriteContext) =>
      remove(thumbprints, options, by, true),
  };
}

export type CertificateService = ReturnType<typeof certificateService>;
