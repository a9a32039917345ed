import { and, eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { verify } from 'otplib';
import { countFailure, maxFailedAttempts } from '../../auth/lockout.js';
import type { AppContext } from '../../context.js';
import { authenticators, users } from '../../db/schema/index.js';
import { runtimePaths } from '../defaults.js';
import type { TextKey } from '../pages/texts.js';
import { type CodeDelivery, destinationOf, issueCode } from './otp-delivery.js';
import { type CodeCheck, checkCode } from './otp-verification.js';
import { type CodeFactor, secondFactorOf } from './second-factor-connection.js';
import { codeErrorPage, showSecondFactor, signInTexts } from './second-factor-page.js';
import type { SignInProgress } from './sign-in-progress.js';
import { continueSignIn, openStep } from './sign-in-steps.js';

/** TOTP: 30-second steps, one step either side accepted. */
const TOTP_TOLERANCE_SECONDS = 30;

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

/** "Send a new code": a new code replaces the old one, at most once per resend interval. */
async function resendCode(
  ctx: AppContext,
  c: Context,
  progress: SignInProgress,
  factor: CodeFactor,
): Promise<Response> {
  const issued = await issueCode(ctx, progress.user, factor, (await signInTexts(ctx, c, progress)).lang);
  if ('error' in issued && issued.error !== 'otp.notSent') return codeErrorPage(ctx, c, progress, issued.error);
  const delivery = destinationOf(factor, progress.user)?.delivery;
  if ('error' in issued) return showSecondFactor(ctx, c, progress, { delivery, error: issued.error });
  if (!issued.sent) return showSecondFactor(ctx, c, progress, { delivery, error: 'otp.resendWait' });
  return showSecondFactor(ctx, c, progress, { delivery, notice: 'otp.resent' });
}

/** The page's error for a sent code that was not accepted. */
const codeRefusals: Record<Exclude<CodeCheck, 'accepted'>, TextKey> = {
  wrong: 'otp.failed',
  exhausted: 'otp.exhausted',
  expired: 'otp.expired',
  missing: 'otp.noCode',
};

/**
 * `POST /runtime/oauth2/otp.idp`: checks the `otp` code, by the plugin type of the sign-in's second factor: against
 * the user's TOTP secret, or against the code sent by SMS or e-mail (whose page may also ask for a new code with
 * `resend`). A wrong code counts as a failed sign-in (the lockout of passwords), and a sent code takes a few wrong
 * attempts only; an expired code is refused without counting. The right one adds `otp` to the authentication
 * methods and the sign-in goes on.
 */
export function secondFactorRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.secondFactor, async (c) => {
    const opened = await openStep(ctx, c, 'otp');
    if ('response' in opened) return opened.response;
    const { form, progress } = opened;
    const { user } = progress;
    if (user.locked || !user.active) return showSecondFactor(ctx, c, progress, { error: 'login.locked' });
    const factor = await secondFactorOf(ctx.db, progress.client, progress.connectionName, user.id);
    if (!factor) return continueSignIn(ctx, c, progress);
    const code = (form.get('otp') ?? '').replace(/\s+/g, '');
    let refusal: { error: TextKey; counted: boolean; delivery?: CodeDelivery | undefined } | undefined;
    if (factor.pluginType === 'Totp') {
      const step = await totpTimeStep(ctx.box.open(factor.secretEnc), code, factor.lastTimeStep);
      if (step === undefined || !(await claimTimeStep(ctx.db, user.id, factor.connectionId, step))) {
        refusal = { error: 'otp.failed', counted: true };
      }
    } else {
      if (form.has('resend')) return resendCode(ctx, c, progress, factor);
      const checked = await checkCode(ctx, { userId: user.id, connectionId: factor.connectionId }, code);
      if (checked !== 'accepted') {
        const delivery = destinationOf(factor, user)?.delivery;
        refusal = { error: codeRefusals[checked], counted: checked !== 'expired', delivery };
      }
    }
    if (refusal) {
      if (!refusal.counted) return showSecondFactor(ctx, c, progress, refusal);
      await countFailure(ctx.db, user.id, await maxFailedAttempts(ctx.db, [progress.connectionName]));
      const [after] = await ctx.db.select({ locked: users.locked }).from(users).where(eq(users.id, user.id));
      return showSecondFactor(ctx, c, progress, { ...refusal, ...(after?.locked ? { error: 'login.locked' } : {}) });
    }
    if (user.failedLoginCount > 0) {
      await ctx.db.update(users).set({ failedLoginCount: 0 }).where(eq(users.id, user.id));
    }
    return continueSignIn(ctx, c, { ...progress, amr: [...progress.amr, 'otp'] });
  });
  return app;
}
