import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { findUserForLogin } from '../auth/lockout.js';
import type { AppContext } from '../context.js';
import { connections } from '../db/schema/index.js';
import { messagingServices } from '../services/messaging.js';
import { errorPage } from './authorize/error-page.js';
import { PageError } from './authorize/request.js';
import { CSRF_FIELD, csrfToken, csrfValid } from './csrf.js';
import { runtimePaths } from './defaults.js';
import { readForm } from './form.js';
import { ForgotPasswordPage } from './pages/forgot-password.js';
import { sendPage, textsFor } from './pages/render.js';

const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /runtime/ResetPassword/ForgotPassword2?connectionId=<guid>` (spec: the in-use username-and-password
 * connection's id is the only parameter) and its form's POST. The POST mails the account a one-time link to the
 * set-password page (`/runtime/ResetPassword/SetPassword`); the answer is the same whether or not the account
 * exists, so the page does not tell which names are taken.
 */
export function forgotPasswordRoute(ctx: AppContext): Hono {
  const app = new Hono();
  const selfService = () => messagingServices(ctx).selfService;

  const connectionOf = async (c: Context): Promise<string | undefined> => {
    const id = c.req.query('connectionId') ?? '';
    if (!guid.test(id)) return undefined;
    const [row] = await ctx.db
      .select({ id: connections.id })
      .from(connections)
      .where(
        and(eq(connections.id, id), eq(connections.pluginType, 'UsernamePassword'), eq(connections.enabled, true)),
      );
    return row?.id;
  };
  const unknown = (c: Context) =>
    errorPage(
      ctx,
      c,
      new PageError('invalid_request', 'connectionId is not a username-and-password connection'),
      undefined,
    );

  const show = async (c: Context, connectionId: string, sent: boolean) => {
    const t = await textsFor(ctx, c, c.req.query('ui_locales'));
    const csrf = await csrfToken(ctx, c, 'forgot', [connectionId]);
    return sendPage(ctx, c, ForgotPasswordPage({ t, connectionId, csrf, sent }));
  };

  app.get(runtimePaths.forgotPassword, async (c) => {
    const connectionId = await connectionOf(c);
    return connectionId ? show(c, connectionId, false) : unknown(c);
  });

  app.post(runtimePaths.forgotPassword, async (c) => {
    const connectionId = await connectionOf(c);
    if (!connectionId) return unknown(c);
    const form = await readForm(c).catch(() => undefined);
    if (!form || !(await csrfValid(ctx, c, 'forgot', [connectionId], form.get(CSRF_FIELD) ?? undefined))) {
      return errorPage(
        ctx,
        c,
        new PageError('invalid_request', 'the form is not valid here (CSRF token)', 403),
        undefined,
      );
    }
    const user = await findUserForLogin(ctx.db, (form.get('username') ?? '').trim());
    if (user?.active) {
      try {
        await selfService().resetPassword(user.id, { actor: 'forgot-password page' });
      } catch (error) {
        ctx.logger.warn('no password reset mail was sent', { userId: user.id, reason: (error as Error).message });
      }
    }
    return show(c, connectionId, true);
  });
  return app;
}
