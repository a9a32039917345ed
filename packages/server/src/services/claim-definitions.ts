import { type BatchDeleteResult, type BatchFailure, type ClaimDefinition, ClaimDefinitionInput } from '@idsvc/shared';
import type { z } from 'zod';
import type { ListRequest } from '../conventions/list.js';
import { Listing, runList } from '../conventions/list.js';
import { applyPatch, parsePatch } from '../conventions/patch.js';
import { isGuid } from '../conventions/segment.js';
import type { Db, DbOrTx } from '../db/client.js';
import { ApiError, badRequest, conflict, notFound } from '../http/api-error.js';
import * as q from '../queries/claim-definitions.js';
import { uniqueOr409 } from '../queries/errors.js';
import { audit } from './audit.js';
import { claimTypeOf, resolveValues } from './claim-definition-values.js';
import type { WriteContext } from './write-context.js';

const entityType = 'claimDefinition';

/** The fields a PATCH may name: everything but `id` and `claimType`. */
export const editableClaimDefinitionFields = [
  'kind',
  'friendlyName',
  'variableName',
  'description',
  'avoidIssue',
  'avoidUpsize',
  'countSpecification',
  'claimValueSpace',
  'showAsColumnOnUserlist',
  'sensitive',
  'userEditable',
  'restrictedSubOrganizationView',
  'allowedValues',
  'groupNames',
] as const;

type Row = q.ClaimDefinitionRow;
type BatchResult = { items: ClaimDefinition[]; failed: BatchFailure[] };

function invalid(error: z.ZodError): ApiError {
  const details = error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
  return badRequest(`invalid claim definition: ${details[0].field} ${details[0].message}`, details);
}

/** The editable fields of a stored definition, as a PATCH sees them. */
function editableOf(row: Row): Record<string, unknown> {
  return {
    kind: row.kind,
    friendlyName: row.friendlyName,
    variableName: row.variableName ?? undefined,
    description: row.description,
    avoidIssue: row.avoidIssue,
    avoidUpsize: row.avoidUpsize,
    countSpecification: row.countSpecification,
    claimValueSpace: row.claimValueSpace,
    showAsColumnOnUserlist: row.showAsColumnOnUserlist,
    sensitive: row.sensitive,
    userEditable: row.userEditable,
    restrictedSubOrganizationView: row.restrictedSubOrganizationView,
    allowedValues: row.allowedValues,
    groupNames: row.groupNames,
  };
}

function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(after).filter(([field, value]) => JSON.stringify(before[field]) !== JSON.stringify(value)),
  );
}

async function createIn(tx: DbOrTx, input: ClaimDefinitionInput, by: WriteContext): Promise<ClaimDefinition> {
  const claimType = claimTypeOf(input);
  const existing = await q.findClaimDefinition(tx, claimType);
  if (existing) throw conflict(`a claim definition of type ${existing.claimType} exists`);
  if (input.id && (await q.findClaimDefinitionById(tx, input.id))) {
    throw conflict(`a claim definition with the id ${input.id} exists`);
  }
  const values = await resolveValues(tx, claimType, input);
  const row = await uniqueOr409(
    () => q.insertClaimDefinition(tx, claimType, values, input.id),
    `a claim definition of type ${claimType} or with the variable name ${values.variableName} exists`,
  );
  await audit(tx, {
    ...by,
    operation: 'create',
    entityType,
    entityKey: row.claimType,
    changes: { claimType, ...values },
  });
  return q.toClaimDefinition(row);
}

async function updateIn(
  tx: DbOrTx,
  existing: Row,
  input: ClaimDefinitionInput,
  by: WriteContext,
): Promise<ClaimDefinition> {
  if (input.id && input.id.toLowerCase() !== existing.id) {
    throw badRequest(`the id ${input.id} is not the id of the claim definition ${existing.claimType}`);
  }
  const values = await resolveValues(tx, existing.claimType, input, existing);
  const row = await uniqueOr409(
    () => q.updateClaimDefinition(tx, existing.id, values),
    `the variable name ${values.variableName} is used by another claim definition`,
  );
  const changes = changedFields(editableOf(existing), { ...values });
  await audit(tx, { ...by, operation: 'update', entityType, entityKey: row.claimType, changes });
  return q.toClaimDefinition(row);
}

async function mustFind(db: DbOrTx, claimType: string): Promise<Row> {
  const row = await q.findClaimDefinition(db, claimType);
  if (!row) throw notFound(`no claim definition of type ${claimType}`);
  return row;
}

async function updateByInput(tx: DbOrTx, input: ClaimDefinitionInput, by: WriteContext): Promise<ClaimDefinition> {
  return updateIn(tx, await mustFind(tx, claimTypeOf(input)), input, by);
}

/** Deletes a definition nobody uses; a definition in use is refused with a 409. */
async function deleteRow(tx: DbOrTx, row: Row, by: WriteContext): Promise<void> {
  const use = await q.claimDefinitionUse(tx, row);
  if (use) throw conflict(`the claim definition ${row.claimType} is in use: ${use}; it is not deleted`);
  await q.deleteClaimDefinition(tx, row.id);
  await audit(tx, { ...by, operation: 'delete', entityType, entityKey: row.claimType });
}

export function claimDefinitionService(db: Db) {
  /** Runs each item in its own savepoint; 400 listing the failures when none succeeded. */
  function batch(
    inputs: ClaimDefinitionInput[],
    what: string,
    run: (tx: DbOrTx, input: ClaimDefinitionInput) => Promise<ClaimDefinition>,
  ): Promise<BatchResult> {
    return db.transaction(async (tx) => {
      const result: BatchResult = { items: [], failed: [] };
      for (const [index, input] of inputs.entries()) {
        try {
          result.items.push(await tx.transaction((sp) => run(sp, input)));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          result.failed.push({ index, id: input.claimType, error: error.code, message: error.message });
        }
      }
      if (result.items.length === 0) throw badRequest(`no claim definition was ${what}`, result.failed);
      return result;
    });
  }

  /** Deletes each existing, unused definition; missing and in-use ones are reported, the answer is a 200. */
  function deleteMany(keys: string[], find: (tx: DbOrTx, key: string) => Promise<Row | undefined>, by: WriteContext) {
    return db.transaction(async (tx) => {
      const result: BatchDeleteResult = { deleted: [], failed: [] };
      for (const [index, key] of keys.entries()) {
        const row = await find(tx, key);
        if (!row) {
          result.failed.push({ index, id: key, error: 'not_found', message: `no claim definition ${key}` });
          continue;
        }
        try {
          await deleteRow(tx, row, by);
          result.deleted.push(key);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          result.failed.push({ index, id: key, error: error.code, message: error.message });
        }
      }
      return result;
    });
  }

  const byId = (tx: DbOrTx, id: string) =>
    isGuid(id) ? q.findClaimDefinitionById(tx, id) : Promise.resolve(undefined);

  return {
    async list(request: ListRequest): Promise<Listing<ClaimDefinition>> {
      const { rows, total } = await runList(q.claimDefinitionList(db), request);
      return new Listing(rows.map(q.toClaimDefinition), total, request);
    },

    async get(claimType: string): Promise<ClaimDefinition> {
      return q.toClaimDefinition(await mustFind(db, claimType));
    },

    async getById(id: string): Promise<ClaimDefinition> {
      const row = await byId(db, id);
      if (!row) throw notFound(`no claim definition with the id ${id}`);
      return q.toClaimDefinition(row);
    },

    create(input: ClaimDefinitionInput, by: WriteContext): Promise<ClaimDefinition> {
      return db.transaction((tx) => createIn(tx, input, by));
    },

    /** A full update of the definition of `input.claimType`: absent fields take their defaults. */
    update(input: ClaimDefinitionInput, by: WriteContext): Promise<ClaimDefinition> {
      return db.transaction((tx) => updateByInput(tx, input, by));
    },

    /** Applies PATCH operations to the editable fields and validates the result as a whole before storing it. */
    async patch(claimType: string, body: unknown, by: WriteContext): Promise<ClaimDefinition> {
      const ops = parsePatch(body);
      return db.transaction(async (tx) => {
        const existing = await mustFind(tx, claimType);
        const next = applyPatch(editableOf(existing), ops, editableClaimDefinitionFields);
        const parsed = ClaimDefinitionInput.safeParse({ ...next, claimType: existing.claimType });
        if (!parsed.success) throw invalid(parsed.error);
        return updateIn(tx, existing, parsed.data, by);
      });
    },

    /** Deleting a missing definition succeeds (spec rule 1). */
    delete(claimType: string, by: WriteContext): Promise<void> {
      return db.transaction(async (tx) => {
        const row = await q.findClaimDefinition(tx, claimType);
        if (row) await deleteRow(tx, row, by);
      });
    },

    deleteById(id: string, by: WriteContext): Promise<void> {
      return db.transaction(async (tx) => {
        const row = await byId(tx, id);
        if (row) await deleteRow(tx, row, by);
      });
    },

    deleteMany: (claimTypes: string[], by: WriteContext) => deleteMany(claimTypes, q.findClaimDefinition, by),
    deleteManyByIds: (ids: string[], by: WriteContext) => deleteMany(ids, byId, by),

    createMany: (inputs: ClaimDefinitionInput[], by: WriteContext) =>
      batch(inputs, 'created', (tx, input) => createIn(tx, input, by)),

    updateMany: (inputs: ClaimDefinitionInput[], by: WriteContext) =>
      batch(inputs, 'updated', (tx, input) => updateByInput(tx, input, by)),
  };
}

export type ClaimDefinitionService = ReturnType<typeof claimDefinitionService>;
