import type { Context } from 'hono';
import { Hono } from 'hono';
import type { JWTPayload } from 'jose';
import type { AppContext } from '../context.js';
import { errorPage } from './authorize/error-page.js';
import { PageError } from './authorize/request.js';
import { loadUser, subjectFor } from './claims.js';
import { findClient, type OAuthClient } from './clients.js';
import { CSRF_FIELD, csrfToken, csrfValid } from './csrf.js';
import { runtimePaths } from './defaults.js';
import { readForm } from './form.js';
import { type FrontchannelLogout, frontchannelLogoutOf } from './frontchannel-logout.js';
import { LogoutConfirmPage } from './pages/logout.js';
import { sendPage, textsFor } from './pages/render.js';
import { type BrowserSession, currentSession, endSession } from './session.js';
import { verifyIssuedToken } from './token-verify.js';
import type { LogoutFinish } from './upstream/logout-continuation.js';
import { finishLogout } from './upstream/logout-finish.js';
import { upstreamLogout, upstreamLogoutTarget } from './upstream/upstream-logout.js';
import { sessionUpstream, type UpstreamSignIn } from './upstream/upstream-session.js';

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The logout request's parameters that the confirmation form carries along. */
const carried = ['id_token_hint', 'post_logout_redirect_uri', 'state', 'client_id', 'ui_locales'] as const;

interface LogoutRequest {
  params: URLSearchParams;
  client?: OAuthClient | undefined;
  hint?: JWTPayload | undefined;
  /** The registered post-logout address, when one was asked for. */
  returnTo?: string | undefined;
}

/**
 * `GET` and `POST /runtime/openidconnect/logout.idp` (OpenID Connect RP-Initiated Logout 1.0). Steps: read the
 * request (`id_token_hint`, `client_id`, `post_logout_redirect_uri`, `state`), check the hint was issued by this
 * service to the client, check the return address is registered for the client (else an error page, never a
 * redirect), then sign out: at once when the hint names the signed-in session, after a CSRF-protected confirmation
 * otherwise. Ends with a redirect to the return address (with `state`) or the signed-out page; when clients of the
 * ended session take front-channel logout, the browser loads their addresses first (frontchannel-logout.ts). A session
 * started through an upstream provider is ended here first, then the browser signs out at the provider, which sends it
 * back to that same end (upstream/upstream-logout.ts).
 */
export function endSessionRoute(ctx: AppContext): Hono {
  const app = new Hono();
  const handler = async (c: Context) => {
    const params = c.req.method === 'GET' ? new URL(c.req.url).searchParams : await readForm(c).catch(() => undefined);
    if (!params) return errorPage(ctx, c, new PageError('invalid_request', 'the body must be a form'), undefined);
    let request: LogoutRequest;
    try {
      request = await readLogoutRequest(ctx, params);
    } catch (error) {
      if (error instanceof PageError) return errorPage(ctx, c, error, params.get('client_id') ?? undefined);
      throw error;
    }
    const session = await currentSession(ctx, c);
    let upstream: UpstreamSignIn | undefined;
    let frontchannel: FrontchannelLogout | undefined;
    if (session) {
      const confirmed = c.req.method === 'POST' && params.get('logout') === 'yes';
      if (confirmed) {
        const valid = await csrfValid(ctx, c, 'logout', [session.id], params.get(CSRF_FIELD) ?? undefined);
        if (!valid) {
          return errorPage(
            ctx,
            c,
            new PageError('invalid_request', 'the form is not valid here (CSRF token)', 403),
            undefined,
          );
        }
      } else if (!(await hintNamesSession(ctx, request, session))) {
        return confirmPage(ctx, c, request, session);
      }
      upstream = await sessionUpstream(ctx, session.id);
      frontchannel = await frontchannelLogoutOf(ctx, await endSession(ctx, c));
    }
    const status = c.req.method === 'GET' ? 302 : 303;
    const finish: LogoutFinish = {
      returnTo: request.returnTo,
      state: params.get('state') ?? undefined,
      uiLocales: params.get('ui_locales') ?? undefined,
      frontchannel,
    };
    const next = upstream ? await upstreamLogout(ctx, c, upstream, finish) : undefined;
    if (next?.redirect) {
      c.header('Cache-Control', 'no-store');
      return c.redirect(next.redirect, status);
    }
    return finishLogout(ctx, c, finish, { status, upstreamUnconfirmed: next?.upstreamUnconfirmed });
  };
  app.get(runtimePaths.endSession, handler);
  app.post(runtimePaths.endSession, handler);
  return app;
}

async function readLogoutRequest(ctx: AppContext, params: URLSearchParams): Promise<LogoutRequest> {
  const request: LogoutRequest = { params };
  const hintValue = params.get('id_token_hint');
  if (hintValue) {
    request.hint = await verifyIssuedToken(ctx, hintValue, { ignoreExpiry: true });
    if (!request.hint) throw new PageError('invalid_request', 'id_token_hint is not an ID token this service issued');
  }
  const hinted = request.hint ? [request.hint.aud].flat().find((a) => typeof a === 'string') : undefined;
  const clientId = params.get('client_id') ?? hinted;
  if (hinted !== undefined && clientId !== hinted)
    throw new PageError('invalid_request', 'client_id differs from id_token_hint');
  request.client = clientId ? await findClient(ctx.db, clientId) : undefined;
  if (clientId && !request.client) throw new PageError('invalid_request', 'unknown client_id');
  const returnTo = params.get('post_logout_redirect_uri');
  if (returnTo) {
    if (!request.client)
      throw new PageError('invalid_request', 'post_logout_redirect_uri needs client_id or id_token_hint');
    request.returnTo = checkReturnAddress(request.client, returnTo);
  }
  return request;
}

/** A post-logout address registered for the client; plain http only when the client allows it (or loopback). */
function checkReturnAddress(client: OAuthClient, address: string): string {
  if (!client.configuration.postLogoutRedirectUris.includes(address)) {
    throw new PageError('invalid_request', 'post_logout_redirect_uri is not registered for this client');
  }
  const url = new URL(address);
  if (url.protocol === 'http:' && !client.configuration.allowPlainHttpRedirectUri && !loopbackHosts.has(url.hostname)) {
    throw new PageError('invalid_request', 'this client may not use a plain http post_logout_redirect_uri');
  }
  return address;
}

/** The hint proves the request comes from the signed-in person's client: its session, or its user for that client. */
async function hintNamesSession(ctx: AppContext, request: LogoutRequest, session: BrowserSession): Promise<boolean> {
  const { hint, client } = request;
  if (!hint || !client) return false;
  if (typeof hint.sid === 'string') return hint.sid === session.id;
  const who = await loadUser(ctx.db, session.userId);
  return who !== undefined && subjectFor(client, who) === hint.sub;
}

async function confirmPage(ctx: AppContext, c: Context, request: LogoutRequest, session: BrowserSession) {
  const t = await textsFor(ctx, c, request.params.get('ui_locales') ?? undefined);
  const hidden = Object.fromEntries(carried.map((name) => [name, request.params.get(name) ?? undefined]));
  const page = LogoutConfirmPage({ t, hidden, csrf: await csrfToken(ctx, c, 'logout', [session.id]) });
  // The confirmed form leads to the upstream provider's sign-out first, when the session was signed in there.
  const upstream = await upstreamLogoutTarget(ctx, await sessionUpstream(ctx, session.id));
  const formTargets = [request.returnTo, upstream].filter((t): t is string => t !== undefined);
  return sendPage(ctx, c, page, { formTargets });
}
