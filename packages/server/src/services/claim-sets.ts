import type { ClaimSet, ClaimSetInput } from '@idsvc/shared';
import type { ListRequest } from '../conventions/list.js';
import { Listing, runList } from '../conventions/list.js';
import { isGuid } from '../conventions/segment.js';
import type { Db, DbOrTx } from '../db/client.js';
import { badRequest, conflict, notFound } from '../http/api-error.js';
import { findClaimDefinitions } from '../queries/claim-definitions.js';
import * as q from '../queries/claim-sets.js';
import { uniqueOr409 } from '../queries/errors.js';
import { audit } from './audit.js';
import type { WriteContext } from './write-context.js';

const entityType = 'claimSet';
type Row = q.ClaimSetRow;

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
  return unique.map((c) => found.get(c.toLowerCase())!);
}

async function valuesOf(db: DbOrTx, input: ClaimSetInput): Promise<q.ClaimSetValues> {
  const name = input.name.trim();
  if (!name) throw badRequest('a claim set name is required', [{ field: 'name', message: 'must not be empty' }]);
  return {
    name,
    description: input.description ?? null,
    claimTypes: await definedClaimTypes(db, input.claimTypes ?? []),
  };
}

/** 409 naming the connections that use the claim set. */
async function refuseInUse(db: DbOrTx, row: Row, what: string): Promise<void> {
  const users = await q.connectionsUsingClaimSet(db, row.name);
  if (users.length > 0) {
    throw conflict(`the claim set ${row.name} is used by the connection(s) ${users.join(', ')}; it is not ${what}`, [
      { field: 'connections', value: users },
    ]);
  }
}

export function claimSetService(db: Db) {
  const byId = (tx: DbOrTx, id: string) => (isGuid(id) ? q.findClaimSetById(tx, id) : Promise.resolve(undefined));

  async function mustFind(tx: DbOrTx, name: string): Promise<Row> {
    const row = await q.findClaimSet(tx, name);
    if (!row) throw notFound(`no claim set named ${name}`);
    return row;
  }

  async function mustFindById(tx: DbOrTx, id: string): Promise<Row> {
    const row = await byId(tx, id);
    if (!row) throw notFound(`no claim set with the id ${id}`);
    return row;
  }

  function deleteRow(find: (tx: DbOrTx) => Promise<Row>, by: WriteContext): Promise<void> {
    return db.transaction(async (tx) => {
      const row = await find(tx);
      await refuseInUse(tx, row, 'deleted');
      await q.deleteClaimSet(tx, row.id);
      await audit(tx, { ...by, operation: 'delete', entityType, entityKey: row.name });
    });
  }

  return {
    async list(request: ListRequest): Promise<Listing<ClaimSet>> {
      const { rows, total } = await runList(q.claimSetList(db), request);
      return new Listing(rows.map(q.toClaimSet), total, request);
    },

    async get(name: string): Promise<ClaimSet> {
      return q.toClaimSet(await mustFind(db, name));
    },

    async getById(id: string): Promise<ClaimSet> {
      return q.toClaimSet(await mustFindById(db, id));
    },

    create(input: ClaimSetInput, by: WriteContext): Promise<ClaimSet> {
      return db.transaction(async (tx) => {
        const values = await valuesOf(tx, input);
        const existing = await q.findClaimSet(tx, values.name);
        if (existing) throw conflict(`a claim set named ${existing.name} exists`);
        if (input.id && (await q.findClaimSetById(tx, input.id))) {
          throw conflict(`a claim set with the id ${input.id} exists`);
        }
        const row = await uniqueOr409(
          () => q.insertClaimSet(tx, values, input.id),
          `a claim set named ${values.name} exists`,
        );
        await audit(tx, { ...by, operation: 'create', entityType, entityKey: row.name, changes: { ...values } });
        return q.toClaimSet(row);
      });
    },

    /**
     * Updates the claim set found by `id` when given, else by name (404 when there is none). With an id the set can
     * be renamed, unless the new name is taken (409) or connections name the set (409: they would lose it); a change
     * of case only is allowed.
     */
    update(input: ClaimSetInput, by: WriteContext): Promise<ClaimSet> {
      return db.transaction(async (tx) => {
        const existing = input.id ? await mustFindById(tx, input.id) : await mustFind(tx, input.name);
        const given = await valuesOf(tx, input);
        // Found by name, the set keeps its name as stored; found by id, it takes the given one.
        const values = input.id ? given : { ...given, name: existing.name };
        if (values.name.toLowerCase() !== existing.name.toLowerCase()) {
          const holder = await q.findClaimSet(tx, values.name);
          if (holder) throw conflict(`a claim set named ${holder.name} exists`);
          await refuseInUse(tx, existing, 'renamed');
        }
        const row = await uniqueOr409(
          () => q.updateClaimSet(tx, existing.id, values),
          `a claim set named ${values.name} exists`,
        );
        await audit(tx, { ...by, operation: 'update', entityType, entityKey: row.name, changes: { ...values } });
        return q.toClaimSet(row);
      });
    },

    /** 404 for a missing claim set (the spec's row, unlike rule 1); 409 when a connection uses it. */
    delete: (name: string, by: WriteContext) => deleteRow((tx) => mustFind(tx, name), by),

    deleteById: (id: string, by: WriteContext) => deleteRow((tx) => mustFindById(tx, id), by),
  };
}

export type ClaimSetService = ReturnType<typeof claimSetService>;
