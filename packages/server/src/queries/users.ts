import type { ClaimValue, User } from '@idsvc/shared';
import { eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { groups, organizations, userClaims, userGroups, users } from '../db/schema/index.js';
import { arrayLiteral, bulkInsert, rowsOf } from './bulk.js';
import { pagedQueries } from './paged-queries.js';
import { countAll } from './sql.js';
import { userFilter, userSort } from './user-filter.js';

export type UserRow = typeof users.$inferSelect & { organization: string };

const columns = { ...getTableColumns(users), organization: organizations.name };

function selectUsers(db: DbOrTx) {
  return db.select(columns).from(users).innerJoin(organizations, eq(organizations.id, users.organizationId));
}

export function userList(db: DbOrTx): ListSource<UserRow & { total: number }> {
  return {
    filter: userFilter,
    sort: userSort,
    tieBreaker: users.id,
    ...pagedQueries<UserRow>(
      (fields) =>
        db.select(fields).from(users).innerJoin(organizations, eq(organizations.id, users.organizationId)).$dynamic(),
      columns,
    ),
  };
}

/** Groups and claims of the given users, in two queries. */
async function membership(db: DbOrTx, ids: string[]) {
  const groupsOf = new Map<string, string[]>();
  const claimsOf = new Map<string, ClaimValue[]>();
  if (ids.length === 0) return { groupsOf, claimsOf };
  const [groupRows, claimRows] = await Promise.all([
    db
      .select({ userId: userGroups.userId, name: groups.name })
      .from(userGroups)
      .innerJoin(groups, eq(groups.id, userGroups.groupId))
      .where(inArray(userGroups.userId, ids))
      .orderBy(groups.name),
    db
      .select({ userId: userClaims.userId, type: userClaims.type, value: userClaims.value })
      .from(userClaims)
      .where(inArray(userClaims.userId, ids))
      .orderBy(userClaims.id),
  ]);
  for (const r of groupRows) groupsOf.set(r.userId, [...(groupsOf.get(r.userId) ?? []), r.name]);
  for (const r of claimRows)
    claimsOf.set(r.userId, [...(claimsOf.get(r.userId) ?? []), { type: r.type, value: r.value }]);
  return { groupsOf, claimsOf };
}

export function toUser(row: UserRow, groupNames: string[], claims: ClaimValue[]): User {
  return {
    id: row.id,
    userName: row.userName,
    email: row.email,
    displayName: row.displayName,
    active: row.active,
    organization: row.organization,
    groups: groupNames,
    forceResetPasswordAfterFirstTimeLogin: row.forceResetPassword,
    claims,
    phoneNumber: row.phoneNumber,
    locked: row.locked,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Complete users from their rows, in the rows' order. */
export async function completeUsers(db: DbOrTx, rows: UserRow[]): Promise<User[]> {
  const { groupsOf, claimsOf } = await membership(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toUser(r, groupsOf.get(r.id) ?? [], claimsOf.get(r.id) ?? []));
}

export async function findUserRows(db: DbOrTx, where: SQL): Promise<UserRow[]> {
  return selectUsers(db).where(where);
}

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  return (await selectUsers(db).where(eq(users.id, id)).limit(1))[0];
}

export async function loadUser(db: DbOrTx, id: string): Promise<User | undefined> {
  const row = await findUserById(db, id);
  return row ? (await completeUsers(db, [row]))[0] : undefined;
}

/** Existing users that share an id, userName or e-mail with the given values (case-insensitive). */
export async function clashingUsers(
  db: DbOrTx,
  keys: { ids: string[]; userNames: string[]; emails: string[] },
): Promise<{ id: string; userName: string; email: string | null }[]> {
  const parts: SQL[] = [];
  const lowered = (values: string[]) =>
    arrayLiteral(
      values.map((v) => v.toLowerCase()),
      'text',
    );
  if (keys.ids.length) parts.push(sql`${users.id} = any(${arrayLiteral(keys.ids, 'uuid')}::uuid[])`);
  if (keys.userNames.length) parts.push(sql`lower(${users.userName}) = any(${lowered(keys.userNames)}::text[])`);
  if (keys.emails.length) parts.push(sql`lower(${users.email}) = any(${lowered(keys.emails)}::text[])`);
  if (parts.length === 0) return [];
  return db
    .select({ id: users.id, userName: users.userName, email: users.email })
    .from(users)
    .where(sql.join(parts, sql` or `));
}

export type NewUserRow = typeof users.$inferInsert;

/** A user to insert; the id is chosen by the caller. */
export interface UserInsert {
  id: string;
  userName: string;
  email: string | null;
  displayName: string | null;
  active: boolean;
  organizationId: string;
  forceResetPassword: boolean;
  phoneNumber: string | null;
  passwordHash: string | null;
  passwordChangedAt: Date | null;
}

const userInsertColumns = [
  ['id', 'uuid'],
  ['user_name', 'text'],
  ['email', 'text'],
  ['display_name', 'text'],
  ['active', 'boolean'],
  ['organization_id', 'uuid'],
  ['force_reset_password', 'boolean'],
  ['phone_number', 'text'],
  ['password_hash', 'text'],
  ['password_changed_at', 'timestamptz'],
] as const;

/** Inserts users in one statement; returns each one's creation instant, in input order. */
export async function insertUsers(db: DbOrTx, rows: UserInsert[]): Promise<Date[]> {
  const result = await bulkInsert(
    db,
    'users',
    userInsertColumns,
    rows.map((r) => [
      r.id,
      r.userName,
      r.email,
      r.displayName,
      r.active,
      r.organizationId,
      r.forceResetPassword,
      r.phoneNumber,
      r.passwordHash,
      r.passwordChangedAt,
    ]),
    sql`id, created_at`,
  );
  const created = new Map(rowsOf<{ id: string; created_at: Date | string }>(result).map((r) => [r.id, r.created_at]));
  return rows.map((r) => new Date(created.get(r.id) ?? Date.now()));
}

export async function updateUserRow(db: DbOrTx, id: string, values: Partial<NewUserRow>) {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Replaces the groups and claims of the given users (multi-row statements). */
export async function replaceMembership(
  db: DbOrTx,
  entries: { userId: string; groupIds?: string[]; claims?: ClaimValue[] }[],
  options: { fresh?: boolean } = {},
) {
  const withGroups = entries.filter((e) => e.groupIds);
  const withClaims = entries.filter((e) => e.claims);
  if (withGroups.length && !options.fresh) {
    await db.delete(userGroups).where(
      inArray(
        userGroups.userId,
        withGroups.map((e) => e.userId),
      ),
    );
  }
  const groupRows = withGroups.flatMap((e) => [...new Set(e.groupIds)].map((groupId) => [e.userId, groupId]));
  if (groupRows.length) {
    await bulkInsert(
      db,
      'user_groups',
      [
        ['user_id', 'uuid'],
        ['group_id', 'uuid'],
      ],
      groupRows,
    );
  }
  if (withClaims.length && !options.fresh) {
    await db.delete(userClaims).where(
      inArray(
        userClaims.userId,
        withClaims.map((e) => e.userId),
      ),
    );
  }
  const claimRows = withClaims.flatMap((e) => (e.claims ?? []).map((c) => [e.userId, c.type, c.value]));
  if (claimRows.length) {
    await bulkInsert(
      db,
      'user_claims',
      [
        ['user_id', 'uuid'],
        ['type', 'text'],
        ['value', 'text'],
      ],
      claimRows,
    );
  }
}

export async function deleteUsers(db: DbOrTx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.delete(users).where(inArray(users.id, ids)).returning({ id: users.id });
  return rows.map((r) => r.id);
}

export async function countUsers(db: DbOrTx, where?: SQL): Promise<number> {
  return (await db.select({ n: countAll() }).from(users).where(where))[0].n;
}
