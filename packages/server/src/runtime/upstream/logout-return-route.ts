import { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { errorPage } from '../authorize/error-page.js';
import { PageError } from '../authorize/request.js';
import { runtimePaths } from '../defaults.js';
import { openContinuation } from './logout-continuation.js';
import { finishLogout } from './logout-finish.js';

/** The answer to a continuation that was not sealed here, is of another kind or has expired. */
export const logoutNotStartedHere = () =>
  new PageError('invalid_request', 'the sign-out has expired or was not started here');

/**
 * `GET /runtime/oauth2/logout-return.idp?state=…`: an upstream OpenID Connect provider (its post_logout_redirect_uri,
 * with the `state` it was given) or WS-Federation service (wreply) sends the browser back after signing out; the
 * logout finishes as it would have without the provider: the client's post-logout address or the signed-out page.
 */
export function logoutReturnRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.get(runtimePaths.upstreamLogoutReturn, async (c) => {
    const continuation = openContinuation(ctx.box, c.req.query('state'), 'upstream-logout');
    if (!continuation) return errorPage(ctx, c, logoutNotStartedHere(), undefined);
    return finishLogout(ctx, c, continuation);
  });
  return app;
}
