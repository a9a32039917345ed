import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { LoggedOutPage } from '../pages/logout.js';
import { sendPage, textsFor } from '../pages/render.js';
import type { LogoutFinish } from './logout-continuation.js';

/**
 * The end of a logout, the session already ended: a redirect to the client's post-logout address with its state, or
 * the signed-out page (noting that the upstream provider's sign-out could not be confirmed, when so).
 */
export async function finishLogout(
  ctx: AppContext,
  c: Context,
  finish: LogoutFinish,
  options: { status?: 302 | 303; upstreamUnconfirmed?: boolean | undefined } = {},
): Promise<Response> {
  if (finish.returnTo) {
    const url = new URL(finish.returnTo);
    if (finish.state) url.searchParams.append('state', finish.state);
    c.header('Cache-Control', 'no-store');
    return c.redirect(url.toString(), options.status ?? 302);
  }
  const t = await textsFor(ctx, c, finish.uiLocales);
  return sendPage(ctx, c, LoggedOutPage({ t, upstreamUnconfirmed: options.upstreamUnconfirmed }));
}
