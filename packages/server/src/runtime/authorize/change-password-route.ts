import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { passwordActive } from '../../auth/lockout.js';
import type { AppContext } from '../../context.js';
import { hashPassword } from '../../crypto/password.js';
import { users } from '../../db/schema/index.js';
import { audit } from '../../services/audit.js';
import { checkPasswordPolicy } from '../../services/password-policy.js';
import { runtimePaths } from '../defaults.js';
import { showChangePassword } from './change-password-page.js';
import { errorPage } from './error-page.js';
import { PageError } from './request.js';
import { continueSignIn, openStep } from './sign-in-steps.js';

/**
 * `POST /runtime/oauth2/changepassword.idp`: the new password of a user whose password has expired or must be reset,
 * who has just proved the old one. A new password that is confirmed and meets the password policy is stored
 * (argon2id), the forced reset and the expiry are cleared, and the sign-in goes on; otherwise the page again.
 */
export function changePasswordRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.changePassword, async (c) => {
    const opened = await openStep(ctx, c, 'change-password');
    if ('response' in opened) return opened.response;
    const { form, progress } = opened;
    const { user } = progress;
    if (user.locked || !user.active) return showChangePassword(ctx, c, progress, { error: 'login.locked' });
    // Changed already (the form sent twice): this interaction no longer changes the password.
    if (passwordActive(user)) {
      return errorPage(ctx, c, new PageError('invalid_request', 'the sign-in has expired'), undefined);
    }
    const password = form.get('password') ?? '';
    if (password !== (form.get('confirmPassword') ?? '')) {
      return showChangePassword(ctx, c, progress, { error: 'changePassword.mismatch' });
    }
    const violations = await checkPasswordPolicy(ctx.db, password);
    if (violations.length > 0) {
      return showChangePassword(ctx, c, progress, {
        error: 'changePassword.policy',
        values: { reasons: violations.join(' ') },
      });
    }
    const passwordHash = await hashPassword(password);
    const updated = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({
          passwordHash,
          passwordChangedAt: new Date(),
          passwordExpiresAt: null,
          forceResetPassword: false,
          failedPasswordChangeCount: 0,
        })
        .where(and(eq(users.id, user.id), eq(users.active, true), eq(users.locked, false)))
        .returning();
      if (row) {
        await audit(tx, {
          actor: `user:${user.id}`,
          operation: 'update',
          entityType: 'user',
          entityKey: user.id,
          changes: { password: 'changed at sign-in (expired or to be reset)' },
        });
      }
      return row;
    });
    if (!updated) return showChangePassword(ctx, c, progress, { error: 'login.locked' });
    return continueSignIn(ctx, c, { ...progress, user: updated });
  });
  return app;
}
