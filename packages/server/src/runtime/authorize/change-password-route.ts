import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { passwordActive } from '../../auth/lockout.js';
import type { AppContext } from '../../context.js';
import { hashPassword } from '../../crypto/password.js';
import { users } from '../../db/schema/index.js';
import { audit } from '../../services/audit.js';
import { checkPasswordPolicy } from '../../services/password-policy.js';
import { csrfToken } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { sealInteraction } from '../interaction.js';
import { ChangePasswordPage } from '../pages/change-password.js';
import { sendPage, textsFor } from '../pages/render.js';
import type { TextKey } from '../pages/texts.js';
import { errorPage } from './flow.js';
import { PageError } from './request.js';
import { continueSignIn, openStep, type SignInProgress, stepInteraction } from './sign-in-steps.js';

/** The change-password page of a sign-in whose password is no longer active, bound to its interaction and user. */
export async function showChangePassword(
  ctx: AppContext,
  c: Context,
  progress: SignInProgress,
  options: { error?: TextKey; values?: Record<string, string> },
): Promise<Response> {
  const interaction = stepInteraction(progress, 'change-password');
  const params = new URLSearchParams(interaction.params ?? []);
  const t = await textsFor(ctx, c, params.get('ui_locales') ?? undefined);
  const page = ChangePasswordPage({
    t,
    interaction: sealInteraction(ctx.box, interaction),
    csrf: await csrfToken(ctx, c, 'change-password', [interaction.id, progress.user.id]),
    error: options.error === undefined ? undefined : t(options.error, options.values),
  });
  const redirectUri = params.get('redirect_uri');
  return sendPage(ctx, c, page, { formTargets: redirectUri ? [redirectUri] : [] });
}

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
