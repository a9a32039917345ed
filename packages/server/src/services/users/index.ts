import {
  type BatchDeleteResult,
  type SearchQuery,
  type User,
  type UserInput,
  type UserStatus,
  UserUpdateInput,
  userSortable,
} from '@idsvc/shared';
import { eq, sql } from 'drizzle-orm';
import { Listing, type ListRequest, listRequest, runList } from '../../conventions/list.js';
import { applyPatch, parsePatch } from '../../conventions/patch.js';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { badRequest, conflict, notFound } from '../../http/api-error.js';
import type { EndedSession } from '../../queries/action-tokens.js';
import { endLiveSessionsOfUsers } from '../../queries/live-sessions.js';
import { hasClaim } from '../../queries/user-filter.js';
import * as q from '../../queries/users.js';
import { audit } from '../audit.js';
import type { WriteContext } from '../write-context.js';
import { checkOldPassword } from './password-change.js';
import { setStatuses } from './statuses.js';
import { createUsers, updateUsers } from './write.js';

const editable = [
  'userName',
  'email',
  'displayName',
  'active',
  'organization',
  'groups',
  'forceResetPasswordAfterFirstTimeLogin',
  'claims',
  'phoneNumber',
  'password',
] as const;

const searchSpec = { kind: 'filter' as const, sortable: userSortable, defaultSort: 'userName' };

export interface UserServiceOptions {
  /** Told how many rows were written (the embedded database refreshes its statistics). */
  noteWrites?: (rows: number) => void;
  /**
   * Called with the live sessions that disabling or deleting users ended, once committed: the clients those
   * sessions signed in to are told (back-channel logout). Must not throw nor wait.
   */
  sessionsEnded?: (ended: EndedSession[]) => void;
}

export function userService(db: Db, options: UserServiceOptions = {}) {
  const { noteWrites } = options;
  /** Tells of the sessions a committed change ended; the change's result is returned as it was. */
  const told = <T>(ended: EndedSession[], result: T): T => {
    if (ended.length > 0) options.sessionsEnded?.(ended);
    return result;
  };
  const update = async (inputs: UserUpdateInput[], by: WriteContext) => {
    const { users: updated, ended } = await updateUsers(db, inputs, by);
    return told(ended, updated);
  };

  async function list(request: ListRequest, fixed?: ReturnType<typeof sql>): Promise<Listing<User>> {
    const { rows, total } = await runList(q.userList(db), request, fixed);
    return new Listing(await q.completeUsers(db, rows), total, request);
  }

  async function mustLoad(id: string): Promise<User> {
    const user = await q.loadUser(db, id);
    if (!user) throw notFound(`user ${id} does not exist`);
    return user;
  }

  return {
    list,

    /** Users_GetAll: an empty result is a 404 (the spec's rule). */
    async listAll(request: ListRequest, claim: { claimType?: string; value?: string }): Promise<Listing<User>> {
      if (claim.value !== undefined && !claim.claimType) throw badRequest('value needs claimType');
      const result = await list(request, claim.claimType ? hasClaim(claim.claimType, claim.value) : undefined);
      if (result.total === 0) throw notFound('no users found');
      return result;
    },

    search(query: SearchQuery | undefined): Promise<Listing<User>> {
      const body = query ?? {};
      return list(
        listRequest(searchSpec, {
          filter: body.filter,
          attributes: body.attributes,
          pageIndex: body.pageIndex?.toString(),
          pageSize: body.pageSize?.toString(),
          sortBy: body.sortBy,
          sortOrder: body.sortOrder,
        }),
      );
    },

    get: mustLoad,

    /** The caller's own profile; a token without a user (client credentials) has none. */
    async myProfile(userId: string | undefined): Promise<User> {
      if (!userId) throw notFound('the token belongs to a client, not a user');
      return mustLoad(userId);
    },

    async create(input: UserInput, by: WriteContext): Promise<User> {
      return (await createUsers(db, [input], by, noteWrites))[0];
    },

    createMany: (inputs: UserInput[], by: WriteContext) => createUsers(db, inputs, by, noteWrites),

    async update(input: UserUpdateInput, by: WriteContext): Promise<User> {
      if (input.oldPassword !== undefined) {
        const row = await q.findUserById(db, input.id);
        if (!row) throw notFound(`user ${input.id} does not exist`);
        await checkOldPassword(db, row.id, row.passwordHash, input.oldPassword);
      }
      return (await update([input], by))[0];
    },

    updateMany: update,

    async patch(id: string, body: unknown, by: WriteContext): Promise<User> {
      const ops = parsePatch(body);
      const current = await mustLoad(id);
      const patched = applyPatch(current, ops, editable);
      const parsed = UserUpdateInput.safeParse({ ...patched, id });
      if (!parsed.success) {
        const details = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
        throw badRequest(`invalid value for ${details[0].field}: ${details[0].message}`, details);
      }
      return (await update([parsed.data], by))[0];
    },

    async setStatuses(items: UserStatus[], by: WriteContext): Promise<UserStatus[]> {
      const { items: set, ended } = await setStatuses(db, items, by);
      return told(ended, set);
    },

    /** Deleting a missing user succeeds (spec rule 1). */
    async delete(id: string, by: WriteContext): Promise<void> {
      const ended = await db.transaction(async (tx) => {
        const sessions = await endLiveSessionsOfUsers(tx, [id]);
        const deleted = await q.deleteUsers(tx, [id]);
        if (deleted.length) await audit(tx, { ...by, operation: 'delete', entityType: 'user', entityKey: id });
        return sessions;
      });
      told(ended, undefined);
    },

    /** Deletes the users that exist; each missing one is reported; 400 when none was deleted. */
    async deleteMany(ids: string[], by: WriteContext): Promise<BatchDeleteResult> {
      let ended: EndedSession[] = [];
      const result = await db.transaction(async (tx) => {
        const unique = [...new Set(ids.map((i) => i.toLowerCase()))];
        ended = await endLiveSessionsOfUsers(tx, unique);
        const deleted = new Set(await q.deleteUsers(tx, unique));
        const failed = ids.flatMap((id, index) =>
          deleted.has(id.toLowerCase())
            ? []
            : [{ index, id, error: 'not_found', message: `user ${id} does not exist` }],
        );
        if (deleted.size === 0) throw badRequest('no user was deleted', failed);
        await audit(
          tx,
          [...deleted].map((id) => ({ ...by, operation: 'delete' as const, entityType: 'user', entityKey: id })),
        );
        return { deleted: [...deleted], failed };
      });
      return told(ended, result);
    },

    /** Users_GetAllLockedUsers: 404 when no user is locked. */
    async listLocked(request: ListRequest): Promise<Listing<User>> {
      const result = await list(request, sql`${users.locked}`);
      if (result.total === 0) throw notFound('no locked users');
      return result;
    },

    /** Unlocks a locked user and clears its failure count; 409 when it is not locked. */
    unlock(userId: string, by: WriteContext): Promise<void> {
      return db.transaction(async (tx) => {
        const row = await q.findUserById(tx, userId);
        if (!row) throw notFound(`user ${userId} does not exist`);
        if (!row.locked) throw conflict(`user ${row.userName} is not locked`);
        await tx
          .update(users)
          .set({ locked: false, lockedAt: null, failedLoginCount: 0, updatedAt: sql`now()` })
          .where(eq(users.id, userId));
        await audit(tx, {
          ...by,
          operation: 'update',
          entityType: 'user',
          entityKey: userId,
          changes: { locked: false },
        });
      });
    },
  };
}

export type UserService = ReturnType<typeof userService>;
