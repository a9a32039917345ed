import { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { findRelayState } from '../../queries/saml-relay-states.js';
import { errorPage } from '../authorize/flow.js';
import { PageError } from '../authorize/request.js';
import { runtimePaths } from '../defaults.js';
import { logUpstreamError } from '../oauth-log.js';
import { openContinuation } from './logout-continuation.js';
import { finishLogout } from './logout-finish.js';
import { logoutNotStartedHere } from './logout-return-route.js';
import { UpstreamError } from './provider.js';
import { readLogoutResponse } from './saml-logout.js';
import { samlIdentityProvider, samlServiceProvider } from './saml-provider.js';

/**
 * `GET /runtime/saml2/slo.idp`: the single logout service (HTTP-Redirect). The identity provider's LogoutResponse
 * to a LogoutRequest of this service comes back with the RelayState the logout is kept under; it is verified
 * (signed by one of the connection's certificates, answering that request, issued by the provider) and the logout
 * finishes as it would have without the provider. The local session ended before the browser left, so a response
 * that does not verify is logged (event 4111) and the logout finishes all the same, the signed-out page saying the
 * provider's sign-out could not be confirmed.
 */
export function samlSloRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.get(runtimePaths.samlSlo, async (c) => {
    const url = new URL(c.req.url);
    if (url.searchParams.has('SAMLRequest')) {
      // A LogoutRequest of the identity provider (single logout it started) is not served: the sessions it names
      // could be found only by opening the sealed upstream sign-in of every live session. It gets a 400 page.
      const refused = new PageError('invalid_request', 'this service does not take logout requests of the provider');
      return errorPage(ctx, c, refused, undefined);
    }
    const relayState = url.searchParams.get('RelayState');
    const sealed = relayState && relayState.length <= 80 ? await findRelayState(ctx.db, relayState) : undefined;
    const continuation = openContinuation(ctx.box, sealed, 'saml-logout');
    if (!continuation?.request) return errorPage(ctx, c, logoutNotStartedHere(), undefined);
    let connection = continuation.connectionId;
    let upstreamUnconfirmed = false;
    try {
      const idp = await samlIdentityProvider(ctx, continuation.connectionId);
      connection = idp.name;
      await readLogoutResponse(idp, await samlServiceProvider(ctx), continuation.request, url.search.slice(1));
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      logUpstreamError(ctx, c, { error: error.error, description: error.description, connection });
      upstreamUnconfirmed = true;
    }
    return finishLogout(ctx, c, continuation, { upstreamUnconfirmed });
  });
  return app;
}
