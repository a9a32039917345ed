import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { csrfToken } from '../csrf.js';
import { sealInteraction } from '../interaction.js';
import { type PageText, sendPage, textsFor } from '../pages/render.js';
import { SecondFactorPage } from '../pages/second-factor.js';
import type { TextKey } from '../pages/texts.js';
import { errorPage } from './error-page.js';
import { type CodeDelivery, type IssuedCode, issueCode, OTP_RESEND_INTERVAL } from './otp-delivery.js';
import { PageError } from './request.js';
import type { SecondFactor } from './second-factor-connection.js';
import { type SignInProgress, stepInteraction } from './sign-in-progress.js';

/** What the second-factor page shows besides the form. */
export interface SecondFactorView {
  error?: TextKey;
  notice?: TextKey;
  /** Where a code was sent (SMS and e-mail factors). */
  delivery?: CodeDelivery | undefined;
}

/** The texts of a sign-in's pages: the request's ui_locales, then Accept-Language. */
export function signInTexts(ctx: AppContext, c: Context, progress: SignInProgress): Promise<PageText> {
  const params = new URLSearchParams(progress.interaction.params ?? []);
  return textsFor(ctx, c, params.get('ui_locales') ?? undefined);
}

/** The second-factor page of a sign-in in progress, with a fresh CSRF token bound to its interaction and user. */
export async function showSecondFactor(
  ctx: AppContext,
  c: Context,
  progress: SignInProgress,
  options: SecondFactorView,
): Promise<Response> {
  const interaction = stepInteraction(progress, 'otp');
  const params = new URLSearchParams(interaction.params ?? []);
  const t = await signInTexts(ctx, c, progress);
  const values = { seconds: String(OTP_RESEND_INTERVAL) };
  const page = SecondFactorPage({
    t,
    interaction: sealInteraction(ctx.box, interaction),
    csrf: await csrfToken(ctx, c, 'otp', [interaction.id, progress.user.id]),
    error: options.error === undefined ? undefined : t(options.error, values),
    notice: options.notice === undefined ? undefined : t(options.notice, values),
    delivery: options.delivery,
  });
  const redirectUri = params.get('redirect_uri');
  return sendPage(ctx, c, page, { formTargets: redirectUri ? [redirectUri] : [] });
}

/**
 * The first page of the second factor. TOTP asks for the app's code. SMS and e-mail send a code first and say where
 * to; a user without a phone number or e-mail address (or a code that could not be sent) gets an error page: the
 * factor is never skipped.
 */
export async function startSecondFactor(
  ctx: AppContext,
  c: Context,
  progress: SignInProgress,
  factor: SecondFactor,
): Promise<Response> {
  if (factor.pluginType === 'Totp') return showSecondFactor(ctx, c, progress, {});
  const issued = await issueCode(ctx, progress.user, factor, (await signInTexts(ctx, c, progress)).lang);
  if ('error' in issued) return codeErrorPage(ctx, c, progress, issued.error);
  return showSecondFactor(ctx, c, progress, {
    delivery: issued.delivery,
    ...(issued.sent ? {} : { notice: 'otp.recentlySent' }),
  });
}

/** The error page of a code that cannot be sent: no address for it (403), or the sending failed (503). */
export async function codeErrorPage(
  ctx: AppContext,
  c: Context,
  progress: SignInProgress,
  error: Extract<IssuedCode, { error: string }>['error'],
): Promise<Response> {
  const t = await signInTexts(ctx, c, progress);
  const uiLocales = new URLSearchParams(progress.interaction.params ?? []).get('ui_locales');
  const failure =
    error === 'otp.notSent'
      ? new PageError('temporarily_unavailable', t(error), 503)
      : new PageError('access_denied', t(error), 403);
  return errorPage(ctx, c, failure, progress.client.clientId, uiLocales);
}
