import { eq, sql } from 'drizzle-orm';
import { maxFailedAttempts } from '../../auth/lockout.js';
import { verifyPassword } from '../../crypto/password.js';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { badRequest } from '../../http/api-error.js';

/**
 * Checks the old password given with a password change. A wrong one is counted; after the UsernamePassword
 * connection's maximum the user is disabled (`active` false), which stops further guessing.
 */
export async function checkOldPassword(db: Db, userId: string, stored: string | null, oldPassword: string) {
  if (stored && (await verifyPassword(stored, oldPassword))) {
    await db.update(users).set({ failedPasswordChangeCount: 0 }).where(eq(users.id, userId));
    return;
  }
  const max = await maxFailedAttempts(db);
  const [row] = await db
    .update(users)
    .set({
      failedPasswordChangeCount: sql`${users.failedPasswordChangeCount} + 1`,
      active: sql`case when ${users.failedPasswordChangeCount} + 1 >= ${max} then false else ${users.active} end`,
    })
    .where(eq(users.id, userId))
    .returning({ active: users.active });
  throw badRequest(
    row?.active === false
      ? 'the old password is incorrect; the user is disabled after too many attempts'
      : 'the old password is incorrect',
    [{ field: 'oldPassword' }],
  );
}
