import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { authenticationConnectionsOf } from '../authentication-connections.js';
import { errorPage } from '../authorize/error-page.js';
import { renderLogin } from '../authorize/login-page.js';
import { PageError } from '../authorize/request.js';
import { findClient, type OAuthClient } from '../clients.js';
import { CSRF_FIELD, csrfToken, csrfValid } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { readForm } from '../form.js';
import { newInteraction } from '../interaction.js';
import { ConsentPage } from '../pages/consent.js';
import { DeviceCodePage, DeviceDonePage } from '../pages/device.js';
import { sendPage, textsFor } from '../pages/render.js';
import { parseScope } from '../scopes.js';
import { type BrowserSession, currentSession } from '../session.js';
import { answerDeviceCode, pendingByUserCode } from './device-codes.js';

/** The client of a pending device authorization. */
export async function deviceClientOf(ctx: AppContext, userCode: string): Promise<OAuthClient | undefined> {
  const row = await pendingByUserCode(ctx.db, userCode);
  return row ? findClient(ctx.db, row.clientId) : undefined;
}

async function showCodeEntry(ctx: AppContext, c: Context, userCode: string | undefined, error?: 'device.unknownCode') {
  const t = await textsFor(ctx, c, c.req.query('ui_locales'));
  const csrf = await csrfToken(ctx, c, 'device', []);
  const page = DeviceCodePage({ t, userCode, csrf, error: error === undefined ? undefined : t(error) });
  return sendPage(ctx, c, page, error ? { status: 400 } : {});
}

/**
 * The confirmation (RFC 8628 §5.4: the person sees which client asks and checks the code): buttons `consent`
 * allow and deny, bound to the session and the user code.
 */
export async function showDeviceConfirmation(
  ctx: AppContext,
  c: Context,
  session: BrowserSession | undefined,
  userCode: string,
): Promise<Response> {
  const row = await pendingByUserCode(ctx.db, userCode);
  const client = row ? await findClient(ctx.db, row.clientId) : undefined;
  if (!row || !client || !session) return showCodeEntry(ctx, c, userCode, 'device.unknownCode');
  const t = await textsFor(ctx, c, c.req.query('ui_locales'));
  const page = ConsentPage({
    t,
    clientName: client.name,
    userName: session.userName,
    scopes: parseScope(row.scope),
    action: runtimePaths.device,
    hidden: { user_code: row.userCode },
    csrf: await csrfToken(ctx, c, 'device-confirm', [row.userCode, session.id]),
    intro: 'device.confirm',
    note: t('device.checkCode', { code: row.userCode }),
  });
  return sendPage(ctx, c, page);
}

/**
 * `GET /runtime/oauth2/device.idp` shows the code form (prefilled from `user_code`); `POST` takes the code
 * (`user_code`), asks the person to sign in when there is no session, then to confirm; the confirmation
 * (`consent=allow|deny`) answers the device's authorization.
 */
export function devicePageRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.get(runtimePaths.device, (c) => showCodeEntry(ctx, c, c.req.query('user_code')));
  app.post(runtimePaths.device, async (c) => {
    const form = await readForm(c).catch(() => undefined);
    if (!form) return errorPage(ctx, c, new PageError('invalid_request', 'the body must be a form'), undefined);
    const session = await currentSession(ctx, c);
    const userCode = form.get('user_code') ?? '';
    const answer = form.get('consent');
    if (answer !== null) return confirm(ctx, c, session, form, userCode, answer);
    if (!(await csrfValid(ctx, c, 'device', [], form.get(CSRF_FIELD) ?? undefined))) {
      return errorPage(
        ctx,
        c,
        new PageError('invalid_request', 'the form is not valid here (CSRF token)', 403),
        undefined,
      );
    }
    const row = await pendingByUserCode(ctx.db, userCode);
    const client = row ? await findClient(ctx.db, row.clientId) : undefined;
    if (!row || !client) return showCodeEntry(ctx, c, userCode, 'device.unknownCode');
    if (session) return showDeviceConfirmation(ctx, c, session, row.userCode);
    return renderLogin(ctx, c, {
      client,
      connections: await authenticationConnectionsOf(ctx.db, client),
      interaction: newInteraction({ kind: 'device', userCode: row.userCode }),
      uiLocales: c.req.query('ui_locales'),
    });
  });
  return app;
}

async function confirm(
  ctx: AppContext,
  c: Context,
  session: BrowserSession | undefined,
  form: URLSearchParams,
  userCode: string,
  answer: string,
): Promise<Response> {
  const bound = [userCode, session?.id ?? ''];
  if (!session || !(await csrfValid(ctx, c, 'device-confirm', bound, form.get(CSRF_FIELD) ?? undefined))) {
    return errorPage(
      ctx,
      c,
      new PageError('invalid_request', 'the form is not valid here (CSRF token)', 403),
      undefined,
    );
  }
  if (answer !== 'allow' && answer !== 'deny') {
    return errorPage(ctx, c, new PageError('invalid_request', 'consent must be allow or deny'), undefined);
  }
  if (!(await answerDeviceCode(ctx.db, userCode, session.userId, answer === 'allow'))) {
    return showCodeEntry(ctx, c, userCode, 'device.unknownCode');
  }
  const t = await textsFor(ctx, c, c.req.query('ui_locales'));
  return sendPage(ctx, c, DeviceDonePage({ t, approved: answer === 'allow' }));
}
