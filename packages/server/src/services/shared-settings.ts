import {
  type SharedConfigurableSetting,
  SharedConfigurableSettingInput,
  type SharedConfigurableSettingUpdateInput,
} from '@idsvc/shared';
import { sql } from 'drizzle-orm';
import type { Listing, ListRequest } from '../conventions/list.js';
import { applyPatch, parsePatch } from '../conventions/patch.js';
import type { Db, DbOrTx } from '../db/client.js';
import { sharedSettings } from '../db/schema/index.js';
import { badRequest, conflict, notFound } from '../http/api-error.js';
import * as q from '../queries/documents.js';
import { uniqueOr409 } from '../queries/errors.js';
import { audit } from './audit.js';
import { type DocumentResource, documentService } from './documents.js';
import { patchableSettingFields, settingData, toSetting } from './shared-setting-rules.js';
import type { WriteContext } from './write-context.js';

const table = sharedSettings;
const label = 'shared configurable setting';
/** Serialises the resourceKey uniqueness check (the key lives in the document, without an index of its own). */
const RESOURCE_KEY_LOCK = 0x5e771;

/** 409 when another setting has the resource key (case-insensitively). */
async function refuseTakenResourceKey(tx: DbOrTx, resourceKey: string, exceptId?: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RESOURCE_KEY_LOCK})`);
  const other = await q.findDocumentWhere(
    tx,
    table,
    sql`lower(${table.data}->>'resourceKey') = lower(${resourceKey.trim()})${exceptId ? sql` and ${table.id} <> ${exceptId}` : sql``}`,
  );
  if (other) {
    throw conflict(`the setting ${other.name} has the resourceKey ${resourceKey}`, [
      { field: 'resourceKey', value: resourceKey },
    ]);
  }
}

export const sharedSettingResource: DocumentResource<SharedConfigurableSetting, SharedConfigurableSettingInput> = {
  table,
  label,
  keyField: 'name',
  fields: { name: { type: 'string' }, resourceKey: { type: 'string' }, description: { type: 'string' } },
  keyOf: (input) => input.name.trim(),
  idOf: (input) => input.id,
  toData: settingData,
  toApi: toSetting,
  validate: (tx, input) => {
    settingData(input);
    return refuseTakenResourceKey(tx, input.resourceKey);
  },
};

/**
 * Shared configurable settings: keyed by name, with a unique resourceKey and an id. PUT finds the setting by id (and
 * may rename it), PATCH by name; both check the result as a create would (language codes, uniqueness).
 */
export function sharedSettingService(db: Db) {
  const documents = documentService(db, sharedSettingResource);

  /** Replaces the stored setting with `input`, in the caller's transaction. */
  async function rewrite(
    tx: DbOrTx,
    row: q.DocumentRow,
    input: SharedConfigurableSettingInput,
    by: WriteContext,
  ): Promise<SharedConfigurableSetting> {
    const name = input.name.trim();
    if (!name) throw badRequest('a setting name is required', [{ field: 'name', message: 'must not be empty' }]);
    const data = settingData(input);
    await refuseTakenResourceKey(tx, input.resourceKey, row.id);
    const updated = await uniqueOr409(
      () => q.updateDocument(tx, table, row.id, { name, data }),
      `a ${label} named ${name} exists`,
    );
    await audit(tx, { ...by, operation: 'update', entityType: label, entityKey: updated.name, changes: input });
    return toSetting(updated);
  }

  return {
    /** 404 when there are no settings at all (the specification's "404 none"). */
    async list(request: ListRequest): Promise<Listing<SharedConfigurableSetting>> {
      const listing = await documents.list(request);
      if (listing.total === 0) throw notFound('there are no shared configurable settings');
      return listing;
    },

    get: (name: string) => documents.get(name),

    async getByResourceKey(resourceKey: string): Promise<SharedConfigurableSetting> {
      const row = await q.findDocumentWhere(
        db,
        table,
        sql`lower(${table.data}->>'resourceKey') = lower(${resourceKey})`,
      );
      if (!row) throw notFound(`no ${label} has the resourceKey ${resourceKey}`);
      return toSetting(row);
    },

    create: (input: SharedConfigurableSettingInput, by: WriteContext) => documents.create(input, by),

    update(input: SharedConfigurableSettingUpdateInput, by: WriteContext): Promise<SharedConfigurableSetting> {
      return db.transaction(async (tx) => {
        const row = await q.findDocumentById(tx, table, input.id);
        if (!row) throw notFound(`no ${label} has the id ${input.id}`);
        return rewrite(tx, row, input, by);
      });
    },

    patch(name: string, body: unknown, by: WriteContext): Promise<SharedConfigurableSetting> {
      const ops = parsePatch(body);
      return db.transaction(async (tx) => {
        const row = await q.findDocument(tx, table, name);
        if (!row) throw notFound(`${label} ${name} does not exist`);
        const { id: _id, ...current } = toSetting(row);
        const parsed = SharedConfigurableSettingInput.safeParse(applyPatch(current, ops, patchableSettingFields));
        if (!parsed.success) {
          const details = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
          throw badRequest(`the patched setting is invalid: ${details[0].field} ${details[0].message}`, details);
        }
        return rewrite(tx, row, parsed.data, by);
      });
    },

    delete: (name: string, by: WriteContext) => documents.delete(name, by, { missingOk: false }),
  };
}

export type SharedSettingService = ReturnType<typeof sharedSettingService>;
