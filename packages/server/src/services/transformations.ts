import type { ExcludeClaimOptionsInput, Transformation, TransformationInput, TransformationType } from '@idsvc/shared';
import type { Db, DbOrTx } from '../db/client.js';
import { transformations } from '../db/schema/index.js';
import { badRequest, notFound } from '../http/api-error.js';
import { findClaimDefinition, findClaimDefinitions } from '../queries/claim-definitions.js';
import { type DocumentRow, updateDocument } from '../queries/documents.js';
import * as q from '../queries/transformations.js';
import { compileScript } from '../transformations/sandbox.js';
import { audit } from './audit.js';
import { type DocumentResource, documentService } from './documents.js';
import type { WriteContext } from './write-context.js';

const label = 'claim transformation';

/** The kinds with a claim-type rule list (the exclude-claim options operations address one of them). */
export type ExcludeKind = Exclude<TransformationType, 'Script'>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const flag = (value: unknown): boolean => value === true;

function toTransformation(row: DocumentRow): Transformation {
  const { data } = row;
  return {
    name: row.name,
    type: data.type as TransformationType,
    accessOrganizationName: text(data.accessOrganizationName),
    conditionNotApplyToRegisteredUsers: flag(data.conditionNotApplyToRegisteredUsers),
    conditionNotApplyToUnregisteredUsers: flag(data.conditionNotApplyToUnregisteredUsers),
    conditionExpression: text(data.conditionExpression),
    cultureCode: text(data.cultureCode),
    executeBeforeLoadingClaimsFromLocalStore: flag(data.executeBeforeLoadingClaimsFromLocalStore),
    claimTypes: Array.isArray(data.claimTypes) ? data.claimTypes.map(String) : [],
    script: text(data.script),
  };
}

/**
 * The stored document of an input over the current one: fields left out keep their values. A Script transformation
 * has a script and no rule list; the Excluded… types have a rule list and no script.
 */
function toData(input: TransformationInput, current: Record<string, unknown> = {}): Record<string, unknown> {
  const pick = (key: keyof TransformationInput, fallback: unknown) =>
    input[key] !== undefined ? input[key] : (current[key] ?? fallback);
  const script = input.type === 'Script' ? text(pick('script', null)) : null;
  if (input.type === 'Script' && !script?.trim()) {
    throw badRequest('a transformation of type Script needs a script', [
      { field: 'script', message: 'required for the Script type' },
    ]);
  }
  return {
    type: input.type,
    accessOrganizationName: pick('accessOrganizationName', null),
    conditionNotApplyToRegisteredUsers: pick('conditionNotApplyToRegisteredUsers', false),
    conditionNotApplyToUnregisteredUsers: pick('conditionNotApplyToUnregisteredUsers', false),
    conditionExpression: pick('conditionExpression', null),
    cultureCode: pick('cultureCode', null),
    executeBeforeLoadingClaimsFromLocalStore: pick('executeBeforeLoadingClaimsFromLocalStore', false),
    claimTypes: input.type === 'Script' ? [] : pick('claimTypes', []),
    script,
  };
}

export const transformationResource: DocumentResource<Transformation, TransformationInput> = {
  table: transformations,
  label,
  keyField: 'name',
  fields: {
    name: { type: 'string' },
    type: { type: 'string' },
    conditionNotApplyToRegisteredUsers: { type: 'boolean' },
    conditionNotApplyToUnregisteredUsers: { type: 'boolean' },
    accessOrganizationName: { type: 'string' },
    conditionExpression: { type: 'string' },
    cultureCode: { type: 'string' },
    executeBeforeLoadingClaimsFromLocalStore: { type: 'boolean' },
  },
  keyOf: (input) => input.name.trim(),
  toData,
  toApi: toTransformation,
  async inUse(db, row) {
    const users = await q.connectionsUsingTransformation(db, row.name);
    return users.length > 0 ? `the ${label} ${row.name} is used by the connection(s) ${users.join(', ')}` : undefined;
  },
};

/** The claim types as their definitions spell them, without repeats; 400 naming those without a definition. */
async function definedClaimTypes(db: DbOrTx, claimTypes: readonly string[]): Promise<string[]> {
  const unique = [...new Map(claimTypes.map((c) => [c.trim().toLowerCase(), c.trim()])).values()];
  const found = new Map((await findClaimDefinitions(db, unique)).map((d) => [d.claimType.toLowerCase(), d.claimType]));
  const unknown = unique.filter((c) => !found.has(c.toLowerCase()));
  if (unknown.length > 0) {
    throw badRequest(
      `claimTypes: no claim definition of type ${unknown.join(', ')}`,
      unknown.map((value) => ({ field: 'claimTypes', value, message: 'no claim definition of this type' })),
    );
  }
  return unique.map((c) => found.get(c.toLowerCase()) as string);
}

/** 400 unless the script compiles, with the compiler's message and line. */
async function mustCompile(script: string, field?: string): Promise<void> {
  const result = await compileScript(script);
  if (result.ok) return;
  const message = result.line === null ? result.message : `${result.message} at line ${result.line}`;
  throw badRequest(field ? `${field}: ${message}` : message, [
    { field: field ?? 'script', message: result.message, line: result.line },
  ]);
}

/** Checks an input against the rules of its type and other resources (before its transaction). */
async function checked(db: Db, input: TransformationInput): Promise<TransformationInput> {
  const name = input.name.trim();
  if (!name) throw badRequest(`a ${label} name is required`, [{ field: 'name', message: 'must not be empty' }]);
  if (input.type !== 'Script' && input.script?.trim()) {
    throw badRequest('script: only a transformation of type Script has a script', [
      { field: 'script', message: `not allowed for the type ${input.type}` },
    ]);
  }
  if (input.type === 'Script' && input.claimTypes?.length) {
    throw badRequest('claimTypes: a transformation of type Script has no claim-type rule list', [
      { field: 'claimTypes', message: 'not allowed for the type Script' },
    ]);
  }
  if (input.type === 'Script' && input.script?.trim()) await mustCompile(input.script, 'script');
  const claimTypes = input.claimTypes && (await definedClaimTypes(db, input.claimTypes));
  return { ...input, name, ...(claimTypes && { claimTypes }) };
}

function requiredNames(input: ExcludeClaimOptionsInput): { name: string; claimType: string } {
  const name = input.transformationName.trim();
  const claimType = input.claimType.trim();
  const blank = [
    ...(name ? [] : [{ field: 'transformationName', message: 'must not be empty' }]),
    ...(claimType ? [] : [{ field: 'claimType', message: 'must not be empty' }]),
  ];
  if (blank.length > 0) throw badRequest(`${blank.map((b) => b.field).join(' and ')} must not be empty`, blank);
  return { name, claimType };
}

export function transformationService(db: Db) {
  const docs = documentService(db, transformationResource);

  async function writeClaimTypes(tx: DbOrTx, row: DocumentRow, claimTypes: string[], by: WriteContext) {
    const updated = await updateDocument(tx, transformations, row.id, { data: { ...row.data, claimTypes } });
    await audit(tx, { ...by, operation: 'update', entityType: label, entityKey: row.name, changes: { claimTypes } });
    return toTransformation(updated);
  }

  return {
    list: docs.list,
    create: async (input: TransformationInput, by: WriteContext) => docs.create(await checked(db, input), by),
    update: async (input: TransformationInput, by: WriteContext) => docs.update(await checked(db, input), by),
    /** 404 for a missing transformation; 409 while a connection applies it. */
    delete: (name: string, by: WriteContext) => docs.delete(name, by, { missingOk: false }),

    /** The spec's rule: this operation reads only the Excluded… types; a Script transformation is a 400. */
    async get(name: string): Promise<Transformation> {
      const found = await docs.get(name);
      if (found.type === 'Script') {
        throw badRequest(
          `the ${label} ${found.name} is of type Script; this operation reads only transformations of type ` +
            'ExcludedPassThroughClaims or ExcludedServiceClaims (list it through /transformations/.filter)',
        );
      }
      return found;
    },

    /** Adds a claim type to the rule list of a transformation of the given kind; 404 for a missing one of that kind. */
    async addClaimType(kind: ExcludeKind, input: ExcludeClaimOptionsInput, by: WriteContext): Promise<Transformation> {
      const { name, claimType } = requiredNames(input);
      return db.transaction(async (tx) => {
        const row = await q.lockTransformation(tx, name);
        if (!row) throw notFound(`${label} ${name} does not exist`);
        if (row.data.type !== kind)
          throw notFound(`${label} ${row.name} is of type ${String(row.data.type)}, not ${kind}`);
        const definition = await findClaimDefinition(tx, claimType);
        if (!definition) throw notFound(`no claim definition of type ${claimType}`);
        const current = toTransformation(row);
        if (current.claimTypes.some((c) => c.toLowerCase() === claimType.toLowerCase())) return current;
        return writeClaimTypes(tx, row, [...current.claimTypes, definition.claimType], by);
      });
    },

    /**
     * Removes a claim type from the rule list of a transformation of the given kind; answers the transformation as
     * it then is (unchanged when the claim type is not listed or the kind differs), or undefined when there is none.
     */
    async removeClaimType(
      kind: ExcludeKind,
      input: ExcludeClaimOptionsInput,
      by: WriteContext,
    ): Promise<Transformation | undefined> {
      const { name, claimType } = requiredNames(input);
      return db.transaction(async (tx) => {
        const row = await q.lockTransformation(tx, name);
        if (!row) return undefined;
        const current = toTransformation(row);
        const kept = current.claimTypes.filter((c) => c.toLowerCase() !== claimType.toLowerCase());
        if (current.type !== kind || kept.length === current.claimTypes.length) return current;
        return writeClaimTypes(tx, row, kept, by);
      });
    },

    /** true when the script compiles (it is not run); 400 with the compiler's message and line otherwise. */
    async testScript(script: string): Promise<true> {
      await mustCompile(script);
      return true;
    },

    /** The named transformations in the order given, for applying them; names without one are left out. */
    async byNames(names: readonly string[]): Promise<Transformation[]> {
      const rows = new Map((await q.findTransformations(db, names)).map((r) => [r.name.toLowerCase(), r]));
      return names.flatMap((n) => {
        const row = rows.get(n.toLowerCase());
        return row ? [toTransformation(row)] : [];
      });
    },
  };
}

export type TransformationService = ReturnType<typeof transformationService>;
