import type { BatchDeleteResult, Group, GroupInput } from '@idsvc/shared';
import type { ListRequest } from '../conventions/list.js';
import { Listing, runList } from '../conventions/list.js';
import type { Db } from '../db/client.js';
import { badRequest, conflict, notFound } from '../http/api-error.js';
import { uniqueOr409 } from '../queries/errors.js';
import * as q from '../queries/groups.js';
import { audit } from './audit.js';
import type { WriteContext } from './write-context.js';

const entityType = 'group';

export function groupService(db: Db) {
  async function mustFind(name: string) {
    const row = await q.findGroup(db, name);
    if (!row) throw notFound(`group ${name} does not exist`);
    return row;
  }

  return {
    async list(request: ListRequest): Promise<Listing<Group>> {
      const { rows, total } = await runList(q.groupList(db), request);
      return new Listing(rows.map(q.toGroup), total, request);
    },

    async get(name: string): Promise<Group> {
      if (!name.trim()) throw badRequest('a group name is required');
      return q.toGroup(await mustFind(name));
    },

    create(input: GroupInput, by: WriteContext): Promise<Group> {
      return db.transaction(async (tx) => {
        const row = await uniqueOr409(() => q.insertGroup(tx, input), `a group named ${input.name} exists`);
        await audit(tx, { ...by, operation: 'create', entityType, entityKey: row.name, changes: input });
        return q.toGroup(row);
      });
    },

    update(input: GroupInput, by: WriteContext): Promise<Group> {
      return db.transaction(async (tx) => {
        const existing = await q.findGroup(tx, input.name);
        if (!existing) throw notFound(`group ${input.name} does not exist`);
        const row = await q.updateGroup(tx, existing.id, input);
        await audit(tx, { ...by, operation: 'update', entityType, entityKey: row.name, changes: input });
        return q.toGroup(row);
      });
    },

    /** Deleting a missing group succeeds (spec rule 1); a group in use is refused. */
    delete(name: string, by: WriteContext): Promise<void> {
      return db.transaction(async (tx) => {
        const existing = await q.findGroup(tx, name);
        if (!existing) return;
        const use = await q.groupUse(tx, existing);
        if (use) throw conflict(`${use}; it is not deleted`);
        await q.deleteGroup(tx, existing.id);
        await audit(tx, { ...by, operation: 'delete', entityType, entityKey: existing.name });
      });
    },

    /** Deletes the named groups that exist and are not in use; 400 when none was deleted. */
    deleteMany(names: string[], by: WriteContext): Promise<BatchDeleteResult> {
      return db.transaction(async (tx) => {
        const result: BatchDeleteResult = { deleted: [], failed: [] };
        for (const [index, name] of names.entries()) {
          const existing = await q.findGroup(tx, name);
          const use = existing ? await q.groupUse(tx, existing) : `group ${name} does not exist`;
          if (!existing || use) {
            result.failed.push({ index, id: name, error: existing ? 'conflict' : 'not_found', message: use ?? '' });
            continue;
          }
          await q.deleteGroup(tx, existing.id);
          result.deleted.push(existing.name);
        }
        if (result.deleted.length === 0) throw badRequest('no group was deleted', result.failed);
        await audit(
          tx,
          result.deleted.map((name) => ({ ...by, operation: 'delete' as const, entityType, entityKey: name })),
        );
        return result;
      });
    },
  };
}

export type GroupService = ReturnType<typeof groupService>;
