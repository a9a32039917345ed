import { randomUUID } from 'node:crypto';
import type { User, UserInput, UserUpdateInput } from '@idsvc/shared';
import { inArray } from 'drizzle-orm';
import { hashPassword } from '../../crypto/password.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { badRequest, conflict, notFound } from '../../http/api-error.js';
import type { EndedSession } from '../../queries/action-tokens.js';
import { uniqueOr409 } from '../../queries/errors.js';
import { endLiveSessionsOfUsers } from '../../queries/live-sessions.js';
import * as q from '../../queries/users.js';
import { audit } from '../audit.js';
import { readFieldRule } from '../field-configuration.js';
import { defaultPasswordRule, fieldRuleViolations } from '../field-rules.js';
import type { WriteContext } from '../write-context.js';
import { refuseDuplicates, resolveReferences } from './references.js';

const entityType = 'user';

type PasswordFields = { password?: string; passwordHash?: string };

/** An empty password, or a password together with a migrated passwordHash, is a 400 naming the item. */
function refuseEmptyPasswords(inputs: PasswordFields[]) {
  const empty = inputs.findIndex((u) => u.password !== undefined && u.password.length === 0);
  if (empty >= 0) throw badRequest('a password must not be empty', [{ index: empty, field: 'password' }]);
  const both = inputs.findIndex((u) => u.password !== undefined && u.passwordHash !== undefined);
  if (both >= 0) {
    throw badRequest('give either password or passwordHash, not both', [
      { index: both, field: 'passwordHash', message: 'password is given too' },
    ]);
  }
}

/** Every new password is checked against the password validation rule in force (field configuration). */
async function refusePolicyViolations(db: DbOrTx, inputs: PasswordFields[]) {
  if (!inputs.some((u) => u.password)) return;
  const rule = (await readFieldRule(db, 'password')) ?? defaultPasswordRule;
  const problems = inputs.flatMap((u, index) =>
    u.password ? fieldRuleViolations(rule, u.password).map((message) => ({ index, field: 'password', message })) : [],
  );
  if (problems.length)
    throw badRequest(`the password does not meet the password rule: ${problems[0].message}`, problems);
}

/**
 * The hash to store per item: a migrated passwordHash as given (verified at login, rehashed to argon2id on the
 * first success), else the password hashed. Hashed in parallel (argon2id runs on the thread pool, so a batch uses
 * every core), before any transaction starts.
 */
function hashAll(inputs: PasswordFields[]): Promise<(string | null)[]> {
  return Promise.all(inputs.map((u) => u.passwordHash ?? (u.password ? hashPassword(u.password) : null)));
}

async function refuseClashes(
  db: DbOrTx,
  inputs: ((UserInput | UserUpdateInput) & { index: number })[],
  selfIds: Set<string>,
) {
  const clashes = await q.clashingUsers(db, {
    ids: selfIds.size ? [] : inputs.flatMap((u) => (u.id ? [u.id] : [])),
    userNames: inputs.flatMap((u) => (u.userName ? [u.userName] : [])),
    emails: inputs.flatMap((u) => (u.email ? [u.email] : [])),
  });
  const others = clashes.filter((c) => !selfIds.has(c.id));
  if (others.length === 0) return;
  const details = inputs.flatMap((u) =>
    others
      .filter(
        (c) =>
          (!selfIds.size && c.id === u.id) ||
          (u.userName && c.userName.toLowerCase() === u.userName.toLowerCase()) ||
          (u.email && c.email?.toLowerCase() === u.email.toLowerCase()),
      )
      .map((c) => ({
        index: u.index,
        userName: u.userName,
        message: `clashes with existing user ${c.userName} (${c.id})`,
      })),
  );
  throw conflict(
    `a user with the same id, userName or email exists: ${details[0]?.message ?? others[0].userName}`,
    details,
  );
}

/** Creates users, all or none: one transaction, multi-row statements. */
export async function createUsers(
  db: Db,
  inputs: UserInput[],
  by: WriteContext,
  noteWrites?: (rows: number) => void,
): Promise<User[]> {
  const items = inputs.map((u, index) => ({ ...u, index }));
  refuseEmptyPasswords(inputs);
  refuseDuplicates(items);
  await refusePolicyViolations(db, inputs);
  // Hashing is the expensive part: check references first so that a doomed batch costs nothing.
  if (inputs.some((u) => u.password)) await resolveReferences(db, items);
  const hashes = await hashAll(inputs);
  const created = await db.transaction(async (tx) => {
    const refs = await resolveReferences(tx, items);
    await refuseClashes(tx, items, new Set());
    const ids = items.map((u) => u.id ?? randomUUID());
    const createdAt = await uniqueOr409(
      () =>
        q.insertUsers(
          tx,
          items.map((u, i) => ({
            id: ids[i],
            userName: u.userName,
            email: u.email ?? null,
            displayName: u.displayName ?? null,
            active: u.active ?? true,
            organizationId: refs.organization(u.organization ?? 'Root').id,
            forceResetPassword: u.forceResetPasswordAfterFirstTimeLogin ?? false,
            phoneNumber: u.phoneNumber ?? null,
            passwordHash: hashes[u.index],
            passwordChangedAt: hashes[u.index] ? new Date() : null,
          })),
        ),
      'a user with the same id, userName or email exists',
    );
    const groupsOf = items.map((u) => refs.groups(u.groups ?? []));
    await q.replaceMembership(
      tx,
      ids.map((id, i) => ({ userId: id, groupIds: groupsOf[i].map((g) => g.id), claims: items[i].claims ?? [] })),
      { fresh: true },
    );
    await audit(
      tx,
      ids.map((id, i) => ({ ...by, operation: 'create' as const, entityType, entityKey: id, changes: inputs[i] })),
    );
    return items.map((u, i) => ({
      id: ids[i],
      userName: u.userName,
      email: u.email ?? null,
      displayName: u.displayName ?? null,
      active: u.active ?? true,
      organization: refs.organization(u.organization ?? 'Root').name,
      groups: groupsOf[i].map((g) => g.name),
      forceResetPasswordAfterFirstTimeLogin: u.forceResetPasswordAfterFirstTimeLogin ?? false,
      claims: u.claims ?? [],
      phoneNumber: u.phoneNumber ?? null,
      locked: false,
      createdAt: createdAt[i].toISOString(),
      updatedAt: createdAt[i].toISOString(),
    }));
  });
  noteWrites?.(created.length);
  return created;
}

/**
 * Updates users, all or none. Absent fields keep their values; `null` clears a nullable field; `groups` and
 * `claims`, when given, replace the user's lists. A user made inactive is signed out: the live sessions that ended
 * are returned beside the users.
 */
export async function updateUsers(
  db: Db,
  inputs: UserUpdateInput[],
  by: WriteContext,
): Promise<{ users: User[]; ended: EndedSession[] }> {
  const items = inputs.map((u, index) => ({ ...u, index }));
  refuseEmptyPasswords(inputs);
  refuseDuplicates(items);
  await refusePolicyViolations(db, inputs);
  const ids = inputs.map((u) => u.id);
  const existing = new Map((await q.findUserRows(db, inArray(users.id, ids))).map((r) => [r.id, r]));
  const missing = items.filter((u) => !existing.has(u.id));
  if (missing.length) {
    throw notFound(
      `user ${missing[0].id} does not exist`,
      missing.map((u) => ({ index: u.index, id: u.id, message: 'user does not exist' })),
    );
  }
  await resolveReferences(db, items);
  const hashes = await hashAll(inputs);
  return db.transaction(async (tx) => {
    const refs = await resolveReferences(tx, items);
    await refuseClashes(tx, items, new Set(ids));
    for (const u of items) {
      await uniqueOr409(
        () =>
          q.updateUserRow(tx, u.id, {
            ...(u.userName ? { userName: u.userName } : {}),
            ...(u.email !== undefined ? { email: u.email } : {}),
            ...(u.displayName !== undefined ? { displayName: u.displayName } : {}),
            ...(u.active !== undefined ? { active: u.active } : {}),
            ...(u.organization ? { organizationId: refs.organization(u.organization).id } : {}),
            ...(u.forceResetPasswordAfterFirstTimeLogin !== undefined
              ? { forceResetPassword: u.forceResetPasswordAfterFirstTimeLogin }
              : {}),
            ...(u.phoneNumber !== undefined ? { phoneNumber: u.phoneNumber } : {}),
            ...(hashes[u.index]
              ? {
                  passwordHash: hashes[u.index],
                  passwordChangedAt: new Date(),
                  passwordExpiresAt: null,
                  failedPasswordChangeCount: 0,
                }
              : {}),
          }),
        'a user with the same userName or email exists',
      );
    }
    const ended = await endLiveSessionsOfUsers(
      tx,
      items.filter((u) => u.active === false).map((u) => u.id),
    );
    await q.replaceMembership(
      tx,
      items.map((u) => ({
        userId: u.id,
        groupIds: u.groups ? refs.groups(u.groups).map((g) => g.id) : undefined,
        claims: u.claims,
      })),
    );
    await audit(
      tx,
      items.map((u) => ({
        ...by,
        operation: 'update' as const,
        entityType,
        entityKey: u.id,
        changes: inputs[u.index],
      })),
    );
    const list = await q.completeUsers(tx, await q.findUserRows(tx, inArray(users.id, ids)));
    const byId = new Map(list.map((x) => [x.id, x]));
    return { users: ids.map((id) => byId.get(id)!), ended };
  });
}
