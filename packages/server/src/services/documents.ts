import { Listing, type ListRequest, runList } from '../conventions/list.js';
import type { Db, DbOrTx } from '../db/client.js';
import { badRequest, conflict, notFound } from '../http/api-error.js';
import * as q from '../queries/documents.js';
import { uniqueOr409 } from '../queries/errors.js';
import { audit } from './audit.js';
import type { WriteContext } from './write-context.js';

/**
 * What a resource stored as a named document declares; everything else (list, filter, sort, get, create,
 * update, delete, audit, 404/409) is this module's. The key lives in the `name` column, the rest in `data`.
 */
export interface DocumentResource<T, I> {
  table: q.DocumentTable;
  /** Audit entity type and the word used in messages, e.g. `message queue`. */
  label: string;
  /** The API field that holds the key, e.g. `name` or `displayName`. */
  keyField: string;
  /** Filterable and sortable fields by API name. */
  fields: Record<string, q.DocumentField>;
  /** The key of an input. */
  keyOf(input: I): string;
  /** The id a create asks for (a GUID), when the resource lets callers choose it; optional. */
  idOf?(input: I): string | undefined;
  /** The stored document of an input (the key excluded), given the current document on update. */
  toData(input: I, current?: Record<string, unknown>): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The API object of a stored row (never secrets). */
  toApi(row: q.DocumentRow): T;
  /** Checks against other resources before a write (400s, 404s); optional. */
  validate?(db: DbOrTx, input: I): Promise<void>;
  /** Why the document may not be deleted (a 409 message), if it is in use. */
  inUse?(db: DbOrTx, row: q.DocumentRow): Promise<string | undefined>;
}

export interface DocumentDeleteOptions {
  /** true: deleting a missing object succeeds (spec rule 1); false: 404. */
  missingOk: boolean;
}

export function documentService<T, I>(db: Db, resource: DocumentResource<T, I>) {
  const { table, label, keyField } = resource;
  const source = () => q.documentList(db, table, keyField, resource.fields);

  async function mustFind(tx: DbOrTx, name: string) {
    if (!name.trim()) throw badRequest(`a ${label} name is required`);
    const row = await q.findDocument(tx, table, name);
    if (!row) throw notFound(`${label} ${name} does not exist`);
    return row;
  }

  return {
    resource,
    async list(request: ListRequest): Promise<Listing<T>> {
      const { rows, total } = await runList(source(), request);
      return new Listing(rows.map(resource.toApi), total, request);
    },

    async get(name: string): Promise<T> {
      return resource.toApi(await mustFind(db, name));
    },

    /** The stored row, for services that build on a document resource. */
    find: (name: string, tx: DbOrTx = db) => q.findDocument(tx, table, name),

    create(input: I, by: WriteContext): Promise<T> {
      return db.transaction(async (tx) => {
        await resource.validate?.(tx, input);
        const name = resource.keyOf(input);
        if (!name.trim())
          throw badRequest(`a ${label} name is required`, [{ field: keyField, message: 'must not be empty' }]);
        const id = resource.idOf?.(input);
        if (id && (await q.findDocumentById(tx, table, id))) throw conflict(`a ${label} with the id ${id} exists`);
        const row = await uniqueOr409(
          async () => q.insertDocument(tx, table, { id, name, data: await resource.toData(input) }),
          `a ${label} named ${name} exists`,
        );
        await audit(tx, {
          ...by,
          operation: 'create',
          entityType: label,
          entityKey: name,
          changes: input as object as Record<string, unknown>,
        });
        return resource.toApi(row);
      });
    },

    update(input: I, by: WriteContext): Promise<T> {
      return db.transaction(async (tx) => {
        const name = resource.keyOf(input);
        const existing = await mustFind(tx, name);
        await resource.validate?.(tx, input);
        const row = await q.updateDocument(tx, table, existing.id, {
          data: await resource.toData(input, existing.data),
        });
        await audit(tx, {
          ...by,
          operation: 'update',
          entityType: label,
          entityKey: existing.name,
          changes: input as object as Record<string, unknown>,
        });
        return resource.toApi(row);
      });
    },

    delete(name: string, by: WriteContext, options: DocumentDeleteOptions): Promise<void> {
      return db.transaction(async (tx) => {
        if (!name.trim()) throw badRequest(`a ${label} name is required`);
        const existing = await q.findDocument(tx, table, name);
        if (!existing) {
          if (options.missingOk) return;
          throw notFound(`${label} ${name} does not exist`);
        }
        const use = await resource.inUse?.(tx, existing);
        if (use) throw conflict(`${use}; it is not deleted`);
        await q.deleteDocument(tx, table, existing.id);
        await audit(tx, { ...by, operation: 'delete', entityType: label, entityKey: existing.name });
      });
    },
  };
}

export type DocumentService<T, I> = ReturnType<typeof documentService<T, I>>;
