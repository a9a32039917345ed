import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { csrfToken } from '../csrf.js';
import { sealInteraction } from '../interaction.js';
import { ChangePasswordPage } from '../pages/change-password.js';
import { sendPage, textsFor } from '../pages/render.js';
import type { TextKey } from '../pages/texts.js';
import { type SignInProgress, stepInteraction } from './sign-in-progress.js';

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
