import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { frontchannelFrames, sendSigningOutPage } from '../frontchannel-logout.js';
import { LoggedOutPage } from '../pages/logout.js';
import { sendPage, textsFor } from '../pages/render.js';
import type { LogoutFinish } from './logout-continuation.js';

/**
 * The end of a logout, the session already ended: a redirect to the client's post-logout address with its state, or
 * the signed-out page (noting that the upstream provider's sign-out could not be confirmed, when so). When clients of
 * the ended session take front-channel logout, the browser loads their addresses in hidden iframes first: on the
 * signing-out page, which goes on to the post-logout address, or on the signed-out page itself.
 */
export async function finishLogout(
  ctx: AppContext,
  c: Context,
  finish: LogoutFinish,
  options: { status?: 302 | 303; upstreamUnconfirmed?: boolean | undefined } = {},
): Promise<Response> {
  const frames = await frontchannelFrames(ctx, finish.frontchannel);
  if (finish.returnTo) {
    const url = new URL(finish.returnTo);
    if (finish.state) url.searchParams.append('state', finish.state);
    if (frames.length > 0) {
      return sendSigningOutPage(ctx, c, { frames, next: url.toString(), uiLocales: finish.uiLocales });
    }
    c.header('Cache-Control', 'no-store');
    return c.redirect(url.toString(), options.status ?? 302);
  }
  const t = await textsFor(ctx, c, finish.uiLocales);
  const page = LoggedOutPage({ t, upstreamUnconfirmed: options.upstreamUnconfirmed, frames });
  return sendPage(ctx, c, page, { frameTargets: frames });
}
