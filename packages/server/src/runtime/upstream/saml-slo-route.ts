import { type Context, Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { errorPage } from '../authorize/error-page.js';
import { runtimePaths } from '../defaults.js';
import { frontchannelLogoutOf } from '../frontchannel-logout.js';
import { logUpstreamError } from '../oauth-log.js';
import { currentSession, endSession } from '../session.js';
import { logoutNotStartedHere } from './logout-return-route.js';
import { readLogoutResponse } from './saml-logout.js';
import { answerLogoutRequest } from './saml-logout-answer.js';
import { logoutAnswered } from './saml-logout-answered.js';
import { LogoutRequestRefused, readLogoutRequest, requestNamesSignIn } from './saml-logout-request.js';
import { keptPostForm, sendSamlPostForm } from './saml-post-form.js';
import { samlServiceProvider } from './saml-provider.js';
import { logoutRequestRefused, samlSloPost, verifiedLogoutRequest } from './saml-slo-post.js';
import { sessionUpstream } from './upstream-session.js';

/**
 * `GET /runtime/saml2/slo.idp`: the single logout service (HTTP-Redirect; its HTTP-POST side is saml-slo-post.ts).
 *
 * The identity provider's LogoutResponse to a LogoutRequest of this service comes back with the RelayState the
 * logout is kept under; it is verified (signed by one of the connection's certificates, answering that request,
 * issued by the provider) and the logout finishes (saml-logout-answered.ts).
 *
 * A LogoutRequest of the identity provider (single logout it started, SAML 2.0 Profiles §4.4, front channel) comes
 * in the person's browser, with the browser's session cookie. It must verify (saml-logout-request.ts); one that does
 * not is logged (event 4111) and gets a 400 page, no session touched. The browser's session ends when it was signed
 * in through that connection with the request's NameID (and one of its SessionIndex values, when it names any). Any
 * other session, or none, is left as it is and the answer is Success all the same: the person named is not signed in
 * here in this browser. The browser is sent back to the provider's single logout service with a signed
 * LogoutResponse by that service's binding (saml-logout-answer.ts), after loading the front-channel logout addresses
 * of the ended session's clients, when they have any.
 *
 * `?send=<id>`: the page that posts a LogoutRequest of this service to a provider whose single logout service takes
 * HTTP-POST only (kept by saml-logout.ts when the logout here ended).
 */
export function samlSloRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.get(runtimePaths.samlSlo, async (c) => {
    const url = new URL(c.req.url);
    const send = url.searchParams.get('send');
    if (send !== null) {
      const form = await keptPostForm(ctx, send);
      return form ? sendSamlPostForm(ctx, c, form) : errorPage(ctx, c, logoutNotStartedHere(), undefined);
    }
    const verified = url.searchParams.get('verified');
    if (verified !== null) return verifiedLogoutRequest(ctx, c, verified);
    if (url.searchParams.has('SAMLRequest')) return logoutRequested(ctx, c, url);
    return logoutAnswered(ctx, c, url.searchParams.get('RelayState'), (idp, sp, sent) =>
      readLogoutResponse(idp, sp, sent, url.search.slice(1)),
    );
  });
  app.post(runtimePaths.samlSlo, (c) => samlSloPost(ctx, c));
  return app;
}

/** The identity provider's LogoutRequest: verified, the browser's session ended if it names it, answered. */
async function logoutRequested(ctx: AppContext, c: Context, url: URL): Promise<Response> {
  const session = await currentSession(ctx, c);
  const signIn = session ? await sessionUpstream(ctx, session.id) : undefined;
  const sp = await samlServiceProvider(ctx);
  let verified: Awaited<ReturnType<typeof readLogoutRequest>>;
  try {
    verified = await readLogoutRequest(ctx, sp, url.search.slice(1), signIn?.connectionId);
  } catch (error) {
    if (!(error instanceof LogoutRequestRefused)) throw error;
    logUpstreamError(ctx, c, { error: error.error, description: error.description, connection: error.connection });
    return errorPage(ctx, c, logoutRequestRefused(), undefined);
  }
  const { idp, request } = verified;
  const ended = requestNamesSignIn(idp, request, signIn) ? await endSession(ctx, c) : undefined;
  return answerLogoutRequest(ctx, c, idp, sp, request, await frontchannelLogoutOf(ctx, ended));
}
