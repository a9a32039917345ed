import type { BatchDeleteResult, Organization, OrganizationInput } from '@idsvc/shared';
import { Listing, type ListRequest, runList } from '../conventions/list.js';
import type { Db, Tx } from '../db/client.js';
import { badRequest, conflict, notFound } from '../http/api-error.js';
import { uniqueOr409 } from '../queries/errors.js';
import * as q from '../queries/organizations.js';
import { audit } from './audit.js';
import type { WriteContext } from './write-context.js';

const entityType = 'organization';
export const ROOT_ORGANIZATION = 'Root';

export function organizationService(db: Db) {
  async function mustFind(tx: Db | Tx, name: string) {
    if (!name.trim()) throw badRequest('an organization name is required');
    const row = await q.findOrganization(tx, name);
    if (!row) throw notFound(`organization ${name} does not exist`);
    return row;
  }

  /** The parent's id: the named one (which must exist), `Root` when none is named. */
  async function parentIdFor(tx: Tx, input: OrganizationInput, selfId?: string): Promise<string> {
    const name = input.parentName ?? ROOT_ORGANIZATION;
    const parent = await q.findOrganization(tx, name);
    if (!parent) throw badRequest(`the parent organization ${name} does not exist`, [{ field: 'parentName' }]);
    if (selfId && (await q.subtreeIds(tx, selfId)).includes(parent.id)) {
      throw badRequest(`${name} is ${input.name} or one of its descendants and cannot be its parent`, [
        { field: 'parentName' },
      ]);
    }
    return parent.id;
  }

  return {
    async list(request: ListRequest): Promise<Listing<Organization>> {
      const { rows, total } = await runList(q.organizationList(db), request);
      return new Listing(rows.map(q.toOrganization), total, request);
    },

    async get(name: string): Promise<Organization> {
      return q.toOrganization(await mustFind(db, name));
    },

    /** Children of an organization; 404 when it does not exist or has none. */
    async children(name: string): Promise<Organization[]> {
      const org = await mustFind(db, name);
      const children = await q.childOrganizations(db, org.id);
      if (children.length === 0) throw notFound(`organization ${org.name} has no child organizations`);
      return children.map(q.toOrganization);
    },

    create(input: OrganizationInput, by: WriteContext): Promise<Organization> {
      return db.transaction(async (tx) => {
        const parentId = await parentIdFor(tx, input);
        await uniqueOr409(
          () => q.insertOrganization(tx, { input, parentId }),
          `an organization named ${input.name} exists`,
        );
        await audit(tx, { ...by, operation: 'create', entityType, entityKey: input.name, changes: input });
        return q.toOrganization((await q.findOrganization(tx, input.name))!);
      });
    },

    update(input: OrganizationInput, by: WriteContext): Promise<Organization> {
      return db.transaction(async (tx) => {
        const existing = await q.findOrganization(tx, input.name);
        if (!existing) throw notFound(`organization ${input.name} does not exist`);
        const isRoot = existing.parentId === null;
        if (isRoot && input.parentName) throw badRequest(`the root organization ${existing.name} has no parent`);
        const parentId = isRoot ? null : await parentIdFor(tx, input, existing.id);
        await q.updateOrganization(tx, existing.id, { input, parentId });
        await audit(tx, { ...by, operation: 'update', entityType, entityKey: existing.name, changes: input });
        return q.toOrganization((await q.findOrganization(tx, existing.name))!);
      });
    },

    /** Deleting a missing organization succeeds (spec rule 1); one in use is refused with 409. */
    delete(name: string, by: WriteContext): Promise<void> {
      return db.transaction(async (tx) => {
        if (!name.trim()) throw badRequest('an organization name is required');
        const existing = await q.findOrganization(tx, name);
        if (!existing) return;
        const use = await q.organizationUse(tx, existing);
        if (use) throw conflict(`${use}; it is not deleted`);
        await q.deleteOrganization(tx, existing.id);
        await audit(tx, { ...by, operation: 'delete', entityType, entityKey: existing.name });
      });
    },

    deleteMany(names: string[], by: WriteContext): Promise<BatchDeleteResult> {
      return db.transaction(async (tx) => {
        const result: BatchDeleteResult = { deleted: [], failed: [] };
        for (const [index, name] of names.entries()) {
          const existing = await q.findOrganization(tx, name);
          const use = existing ? await q.organizationUse(tx, existing) : `organization ${name} does not exist`;
          if (!existing || use) {
            result.failed.push({ index, id: name, error: existing ? 'conflict' : 'not_found', message: use ?? '' });
            continue;
          }
          await q.deleteOrganization(tx, existing.id);
          result.deleted.push(existing.name);
        }
        if (result.deleted.length === 0) throw badRequest('no organization was deleted', result.failed);
        await audit(
          tx,
          result.deleted.map((n) => ({ ...by, operation: 'delete' as const, entityType, entityKey: n })),
        );
        return result;
      });
    },
  };
}

export type OrganizationService = ReturnType<typeof organizationService>;
