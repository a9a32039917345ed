import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { passwordActive } from '../../auth/lockout.js';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema/index.js';
import { findClient, type OAuthClient } from '../clients.js';
import { CSRF_FIELD, csrfValid } from '../csrf.js';
import { runtimeDefaults } from '../defaults.js';
import { deviceClientOf, showDeviceConfirmation } from '../device/device-page.js';
import { readForm } from '../form.js';
import { type Interaction, openInteraction } from '../interaction.js';
import { findSession, sessionIdOf, startSession } from '../session.js';
import { showChangePassword } from './change-password-page.js';
import { errorPage } from './error-page.js';
import { runAuthorization } from './flow.js';
import { PageError } from './request.js';
import { secondFactorOf } from './second-factor-connection.js';
import { startSecondFactor } from './second-factor-page.js';
import type { SignInProgress } from './sign-in-progress.js';

/**
 * After a step of the sign-in succeeded: the second factor when a connection the sign-in depends on asks one (a
 * TOTP authenticator the user has enrolled, or a code sent by SMS or e-mail) and it has not been passed, then a new
 * password when the one proved is no longer active, then the session and the interaction goes on.
 */
export async function continueSignIn(ctx: AppContext, c: Context, progress: SignInProgress): Promise<Response> {
  if (!progress.amr.includes('otp')) {
    const factor = await secondFactorOf(ctx.db, progress.client, progress.connectionName, progress.user.id);
    if (factor) return startSecondFactor(ctx, c, progress, factor);
  }
  if (!passwordActive(progress.user)) return showChangePassword(ctx, c, progress, {});
  return finishSignIn(ctx, c, progress);
}

/** Starts the session of the signed-in user and goes on with the interaction (authorization or device). */
export async function finishSignIn(ctx: AppContext, c: Context, progress: SignInProgress): Promise<Response> {
  const { interaction } = progress;
  const params = new URLSearchParams(interaction.params ?? []);
  const acr = params.get('acr_values')?.split(' ').find(Boolean) ?? runtimeDefaults.passwordAcr;
  const sessionId = await startSession(ctx, c, {
    userId: progress.user.id,
    acr,
    amr: progress.amr,
    replaces: sessionIdOf(c),
  });
  const session = await findSession(ctx.db, sessionId);
  if (interaction.kind === 'device') {
    return showDeviceConfirmation(ctx, c, session, interaction.userCode ?? '');
  }
  return runAuthorization(ctx, c, params, { session, authenticatedSession: sessionId });
}

/** The client of an interaction: the device code's, or the authorization request's. */
export async function clientOfInteraction(ctx: AppContext, interaction: Interaction): Promise<OAuthClient | undefined> {
  if (interaction.kind === 'device') return deviceClientOf(ctx, interaction.userCode ?? '');
  return findClient(ctx.db, new URLSearchParams(interaction.params ?? []).get('client_id') ?? '');
}

/**
 * Opens the form of a step page: the sealed interaction of that step, its CSRF token (bound to the interaction and
 * the user), the client and the user (who must still exist). Answers the error page otherwise.
 */
export async function openStep(
  ctx: AppContext,
  c: Context,
  step: 'otp' | 'change-password',
): Promise<{ form: URLSearchParams; progress: SignInProgress } | { response: Response }> {
  const expired = async () => ({
    response: await errorPage(ctx, c, new PageError('invalid_request', 'the sign-in has expired'), undefined),
  });
  const form = await readForm(c).catch(() => undefined);
  const interaction = openInteraction(ctx.box, form?.get('interaction') ?? undefined);
  if (!form || !interaction || interaction.step !== step || !interaction.userId || !interaction.connectionName) {
    return expired();
  }
  const bound = [interaction.id, interaction.userId];
  if (!(await csrfValid(ctx, c, step, bound, form.get(CSRF_FIELD) ?? undefined))) {
    return {
      response: await errorPage(
        ctx,
        c,
        new PageError('invalid_request', 'the form is not valid here (CSRF token)', 403),
        undefined,
      ),
    };
  }
  const client = await clientOfInteraction(ctx, interaction);
  const [user] = await ctx.db.select().from(users).where(eq(users.id, interaction.userId));
  if (!client || !user) return expired();
  const progress: SignInProgress = {
    interaction,
    client,
    user,
    connectionName: interaction.connectionName,
    amr: interaction.amr ?? ['pwd'],
  };
  return { form, progress };
}
