import { and, eq, inArray, not, sql } from 'drizzle-orm';
import { hashPassword, needsRehash, verifyPassword } from '../crypto/password.js';
import type { DbOrTx } from '../db/client.js';
import { preparedQuery } from '../db/prepared.js';
import { connections, users } from '../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;

export type PasswordCheckFailure = 'unknown' | 'bad_password' | 'locked' | 'inactive' | 'password_not_active';
export type PasswordCheck = { ok: true; user: UserRow } | { ok: false; reason: PasswordCheckFailure };

export const DEFAULT_MAX_FAILED_ATTEMPTS = 10;

/**
 * The lockout threshold: `maximumFailedAttempts` of the UsernamePassword connection in use (of those named, the
 * one listed last), 10 when unset or invalid.
 */
export async function maxFailedAttempts(
  db: DbOrTx,
  connectionNames: readonly string[] = ['UsernamePassword'],
): Promise<number> {
  const names = connectionNames.map((n) => n.toLowerCase());
  if (names.length === 0) return DEFAULT_MAX_FAILED_ATTEMPTS;
  const rows = await db
    .select({ name: connections.name, configuration: connections.configuration })
    .from(connections)
    .where(and(eq(connections.pluginType, 'UsernamePassword'), inArray(sql`lower(${connections.name})`, names)));
  const inUse = rows.sort((a, b) => names.indexOf(b.name.toLowerCase()) - names.indexOf(a.name.toLowerCase()))[0];
  const value = inUse?.configuration.maximumFailedAttempts;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : DEFAULT_MAX_FAILED_ATTEMPTS;
}

/** Finds a user by userName, or else by e-mail, case-insensitively. */
export async function findUserForLogin(db: DbOrTx, userNameOrEmail: string): Promise<UserRow | undefined> {
  const [user] = await loginQuery(db).execute({ name: userNameOrEmail });
  return user;
}

const loginQuery = preparedQuery((db) => {
  const name = sql.placeholder('name');
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.userName}) = lower(${name}) or lower(${users.email}) = lower(${name})`)
    .orderBy(sql`lower(${users.userName}) = lower(${name}) desc`)
    .limit(1)
    .prepare('user_for_login');
});

let dummyHash: Promise<string> | undefined;

/** Spends the time of a real check on an unknown user, so timing does not tell which user names exist. */
async function spendCheckTime(password: string): Promise<void> {
  dummyHash ??= hashPassword('idsvc-unknown-user');
  await verifyPassword(await dummyHash, password);
}

/**
 * Checks a user's password and keeps the consecutive-failure count in the database: a failure adds one and locks
 * the user at `maxAttempts`; a success resets it (and upgrades an outdated hash). While locked every check fails.
 * A right password that is expired or must be reset gives `password_not_active`.
 */
export async function checkUserPassword(
  db: DbOrTx,
  userNameOrEmail: string,
  password: string,
  maxAttempts: number,
): Promise<PasswordCheck> {
  const user = await findUserForLogin(db, userNameOrEmail);
  if (!user) {
    await spendCheckTime(password);
    return { ok: false, reason: 'unknown' };
  }
  if (user.locked) return { ok: false, reason: 'locked' };
  if (!user.active) return { ok: false, reason: 'inactive' };
  const verified = user.passwordHash !== null && (await verifyPassword(user.passwordHash, password));
  if (!verified) {
    await countFailure(db, user.id, maxAttempts);
    return { ok: false, reason: 'bad_password' };
  }
  const updated = await resetFailures(db, user, password);
  if (!updated) return { ok: false, reason: 'locked' };
  if (!passwordActive(updated)) return { ok: false, reason: 'password_not_active' };
  return { ok: true, user: updated };
}

/** A password is active unless the user must reset it or it has expired. */
export function passwordActive(
  user: Pick<UserRow, 'forceResetPassword' | 'passwordExpiresAt'>,
  now = new Date(),
): boolean {
  if (user.forceResetPassword) return false;
  return !user.passwordExpiresAt || user.passwordExpiresAt.getTime() > now.getTime();
}

/** Adds one failure in SQL (concurrent failures all count) and locks the user when the count reaches the maximum. */
export async function countFailure(db: DbOrTx, userId: string, maxAttempts: number): Promise<void> {
  const reached = sql`${users.failedLoginCount} + 1 >= ${maxAttempts}`;
  await db
    .update(users)
    .set({
      failedLoginCount: sql`${users.failedLoginCount} + 1`,
      locked: sql`${users.locked} or ${reached}`,
      lockedAt: sql`case when not ${users.locked} and ${reached} then now() else ${users.lockedAt} end`,
    })
    .where(eq(users.id, userId));
}

/** Resets the count unless the user was locked meanwhile (then undefined); rehashes an outdated hash. */
async function resetFailures(db: DbOrTx, user: UserRow, password: string): Promise<UserRow | undefined> {
  const rehash = user.passwordHash !== null && needsRehash(user.passwordHash);
  // Nothing to reset or upgrade: no write (a sign-in is then a read only; the success orders before any failure
  // counted meanwhile).
  if (!rehash && user.failedLoginCount === 0) return user;
  const [updated] = await db
    .update(users)
    .set({ failedLoginCount: 0, ...(rehash ? { passwordHash: await hashPassword(password) } : {}) })
    .where(and(eq(users.id, user.id), not(users.locked)))
    .returning();
  return updated;
}
