import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { verify } from 'otplib';
import { countFailure, maxFailedAttempts } from '../../auth/lockout.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { authenticators, connections, users } from '../../db/schema/index.js';
import type { OAuthClient } from '../clients.js';
import { csrfToken } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { sealInteraction } from '../interaction.js';
import { sendPage, textsFor } from '../pages/render.js';
import { SecondFactorPage } from '../pages/second-factor.js';
import type { TextKey } from '../pages/texts.js';
import { continueSignIn, openStep, type SignInProgress, stepInteraction } from './sign-in-steps.js';

/** A TOTP second-factor connection with the user's sealed secret for it. */
interface TotpEnrolment {
  connectionId: string;
  name: string;
  secretEnc: string;
  lastTimeStep: number | null;
}

/** TOTP: 30-second steps, one step either side accepted. */
const TOTP_TOLERANCE_SECONDS = 30;

/**
 * The TOTP second factor of a sign-in: an enabled `SecondFactor` connection of plugin type `Totp` named by the
 * client's `dependencyConnectionNames` or by those of the username-and-password connection, for which the user has
 * an authenticator enrolled (the first in the order named).
 */
export async function totpConnectionOf(
  db: DbOrTx,
  client: OAuthClient,
  passwordConnectionName: string,
  userId: string,
): Promise<TotpEnrolment | undefined> {
  const [password] = await db
    .select({ names: connections.dependencyConnectionNames })
    .from(connections)
    .where(
      and(
        eq(connections.pluginType, 'UsernamePassword'),
        sql`lower(${connections.name}) = ${passwordConnectionName.toLowerCase()}`,
      ),
    )
    .limit(1);
  const names = [...client.dependencyConnectionNames, ...(password?.names ?? [])].map((n) => n.toLowerCase());
  if (names.length === 0) return undefined;
  const rows = await db
    .select({
      connectionId: connections.id,
      name: connections.name,
      secretEnc: authenticators.secretEnc,
      lastTimeStep: authenticators.lastTimeStep,
    })
    .from(connections)
    .innerJoin(authenticators, and(eq(authenticators.connectionId, connections.id), eq(authenticators.userId, userId)))
    .where(
      and(
        inArray(sql`lower(${connections.name})`, names),
        eq(connections.connectionType, 'SecondFactor'),
        eq(connections.pluginType, 'Totp'),
        eq(connections.enabled, true),
      ),
    );
  return rows.sort((a, b) => names.indexOf(a.name.toLowerCase()) - names.indexOf(b.name.toLowerCase()))[0];
}

/**
 * The time step of `code` when it is the TOTP code of the secret now (±1 step of 30 s) and later than the last
 * accepted step (a code is good once); undefined otherwise.
 */
export async function totpTimeStep(secret: string, code: string, after: number | null): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  try {
    const result = await verify({ secret, token: code, epochTolerance: TOTP_TOLERANCE_SECONDS });
    if (!result.valid || !('timeStep' in result)) return undefined;
    return after === null || result.timeStep > after ? result.timeStep : undefined;
  } catch {
    return undefined;
  }
}

/** Records the accepted step, unless another request accepted this step (or a later one) first. */
async function claimTimeStep(
  db: AppContext['db'],
  userId: string,
  connectionId: string,
  step: number,
): Promise<boolean> {
  const claimed = await db
    .update(authenticators)
    .set({ lastTimeStep: step })
    .where(
      and(
        eq(authenticators.userId, userId),
        eq(authenticators.connectionId, connectionId),
        sql`(${authenticators.lastTimeStep} is null or ${authenticators.lastTimeStep} < ${step})`,
      ),
    )
    .returning({ step: authenticators.lastTimeStep });
  return claimed.length === 1;
}

/** The second-factor page of a sign-in in progress, with a fresh CSRF token bound to its interaction and user. */
export async function showSecondFactor(
  ctx: AppContext,
  c: Context,
  progress: SignInProgress,
  options: { error?: TextKey },
): Promise<Response> {
  const interaction = stepInteraction(progress, 'otp');
  const params = new URLSearchParams(interaction.params ?? []);
  const t = await textsFor(ctx, c, params.get('ui_locales') ?? undefined);
  const page = SecondFactorPage({
    t,
    interaction: sealInteraction(ctx.box, interaction),
    csrf: await csrfToken(ctx, c, 'otp', [interaction.id, progress.user.id]),
    error: options.error === undefined ? undefined : t(options.error),
  });
  const redirectUri = params.get('redirect_uri');
  return sendPage(ctx, c, page, { formTargets: redirectUri ? [redirectUri] : [] });
}

/**
 * `POST /runtime/oauth2/otp.idp`: checks the `otp` code against the user's TOTP secret. A wrong code counts as a
 * failed sign-in (the lockout of passwords); the right one adds `otp` to the authentication methods and the sign-in
 * goes on.
 */
export function secondFactorRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.secondFactor, async (c) => {
    const opened = await openStep(ctx, c, 'otp');
    if ('response' in opened) return opened.response;
    const { form, progress } = opened;
    const { user } = progress;
    if (user.locked || !user.active) return showSecondFactor(ctx, c, progress, { error: 'login.locked' });
    const enrolment = await totpConnectionOf(ctx.db, progress.client, progress.connectionName, user.id);
    if (!enrolment) return continueSignIn(ctx, c, progress);
    const code = (form.get('otp') ?? '').replace(/\s+/g, '');
    const step = await totpTimeStep(ctx.box.open(enrolment.secretEnc), code, enrolment.lastTimeStep);
    if (step === undefined || !(await claimTimeStep(ctx.db, user.id, enrolment.connectionId, step))) {
      await countFailure(ctx.db, user.id, await maxFailedAttempts(ctx.db, [progress.connectionName]));
      const [after] = await ctx.db.select({ locked: users.locked }).from(users).where(eq(users.id, user.id));
      return showSecondFactor(ctx, c, progress, { error: after?.locked ? 'login.locked' : 'otp.failed' });
    }
    if (user.failedLoginCount > 0) {
      await ctx.db.update(users).set({ failedLoginCount: 0 }).where(eq(users.id, user.id));
    }
    return continueSignIn(ctx, c, { ...progress, amr: [...progress.amr, 'otp'] });
  });
  return app;
}
