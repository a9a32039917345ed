import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import {
  type AuthenticationConnection,
  authenticationConnectionsOf,
  chooseByWhr,
  passwordConnectionOf,
} from '../authentication-connections.js';
import { loadUser, subjectFor } from '../claims.js';
import { findClient, type OAuthClient } from '../clients.js';
import { hasConsent, recordConsent } from '../consent.js';
import { AccessDenied, ConsentRequired, InvalidRequest, LoginRequired, OAuthError } from '../oauth-errors.js';
import { type BrowserSession, currentSession } from '../session.js';
import { verifyIssuedToken } from '../token-verify.js';
import { startSamlSignIn } from '../upstream/saml-start.js';
import { startUpstreamSignIn } from '../upstream/start.js';
import { startWsFedSignIn } from '../upstream/wsfed-start.js';
import { showConsent } from './consent-page.js';
import { errorPage } from './error-page.js';
import { showLogin } from './login-page.js';
import {
  type AuthorizationRequest,
  PageError,
  parseAuthorizationRequest,
  type ResponseTarget,
  responseTargetOf,
} from './request.js';
import { issueAuthorizationResponse, redirectError } from './respond.js';
import { secondFactorOf } from './second-factor-connection.js';

/** Where a step of the sign-in stands: what the pages carry from one step to the next. */
export interface FlowState {
  /** The session a login of this interaction just started (or the one the request's cookie names). */
  session?: BrowserSession | undefined;
  /** That session signed in for this very request: prompt=login, max_age and acr_values are met. */
  authenticatedSession?: string | undefined;
  /** The answer the person gave on the consent page of this request. */
  consent?: 'allow' | 'deny' | undefined;
  /** The sign-in failed elsewhere (an upstream provider): the client gets this error. */
  failure?: OAuthError | undefined;
}

/** Everything a step knows about the request. */
export interface FlowContext {
  ctx: AppContext;
  c: Context;
  params: URLSearchParams;
  client: OAuthClient;
  request: AuthorizationRequest;
  connections: AuthenticationConnection[];
  /** The connection `whr` chose, if any. */
  chosen?: AuthenticationConnection | undefined;
  session?: BrowserSession | undefined;
  state: FlowState;
}

/**
 * The authorization endpoint's steps, run again after every page (login, consent) with the request carried by the
 * sealed interaction:
 * 1. trust the client and its redirect address (errors: a page, never a redirect);
 * 2. validate the request (errors from here on go back to the redirect address);
 * 3. choose the authentication connection (`whr`);
 * 4. find the session and decide whether the person must sign in (prompt, max_age, id_token_hint, acr_values);
 * 5. ask for consent where the client needs it;
 * 6. issue the response.
 */
export async function runAuthorization(
  ctx: AppContext,
  c: Context,
  params: URLSearchParams,
  state: FlowState = {},
): Promise<Response> {
  const client = await findClient(ctx.db, params.get('client_id') ?? '');
  let target: ResponseTarget;
  try {
    if (!client || params.getAll('client_id').length !== 1) throw new PageError('invalid_request', 'unknown client_id');
    target = responseTargetOf(client, params);
  } catch (error) {
    if (error instanceof PageError)
      return errorPage(ctx, c, error, params.get('client_id') ?? undefined, params.get('ui_locales'));
    throw error;
  }
  try {
    if (state.failure) throw state.failure;
    const request = parseAuthorizationRequest(client, params, target);
    const connections = await authenticationConnectionsOf(ctx.db, client);
    const chosen = request.whr === undefined ? undefined : chooseByWhr(connections, request.whr);
    const session = state.session ?? (await currentSession(ctx, c));
    const flow: FlowContext = { ctx, c, params, client, request, connections, chosen, session, state };
    if (!session || (await mustSignIn(flow, session))) {
      // An upstream provider may hold a session of its own: prompt=none goes on to it (passive for SAML; WS-Federation
      // has no passive request, so its start answers prompt=none itself).
      if (chosen?.pluginType === 'GenericOidcProvider') return await startUpstreamSignIn(flow, chosen);
      if (chosen?.pluginType === 'Saml20') return await startSamlSignIn(flow, chosen);
      if (chosen?.pluginType === 'WsFederation') return await startWsFedSignIn(flow, chosen);
      if (chosen && chosen.pluginType !== 'UsernamePassword') {
        throw new InvalidRequest(`signing in through ${chosen.pluginType} connections is not supported here`);
      }
      if (request.prompt.includes('none')) throw new LoginRequired();
      return showLogin(flow, {});
    }
    if (state.consent === 'deny') throw new AccessDenied('the user denied access');
    if (state.consent === 'allow') {
      await recordConsent(ctx.db, session.userId, client.connectionId, request.scopes);
    } else if (await mustConsent(flow, session)) {
      if (request.prompt.includes('none')) throw new ConsentRequired();
      return showConsent(flow, session);
    }
    return await issueAuthorizationResponse(ctx, c, client, request, session);
  } catch (error) {
    if (error instanceof OAuthError)
      return redirectError(ctx, c, target, error, client.clientId, params.get('ui_locales') ?? undefined);
    throw error;
  }
}

/** Whether the session does not serve this request: prompt=login, max_age passed, another user hinted, acr. */
async function mustSignIn(flow: FlowContext, session: BrowserSession): Promise<boolean> {
  const { request, state } = flow;
  if (state.authenticatedSession === session.id) return false;
  if (request.prompt.includes('login') || request.prompt.includes('select_account')) return true;
  if (request.maxAge !== undefined && Date.now() - session.authTime.getTime() > request.maxAge * 1000) return true;
  if (request.acrValues.length > 0 && !request.acrValues.includes(session.acr ?? '')) return true;
  if (request.idTokenHint !== undefined) {
    const hinted = await hintedSubject(flow);
    const who = await loadUser(flow.ctx.db, session.userId);
    if (!who || subjectFor(flow.client, who) !== hinted) return true;
  }
  // A session signed in with the password alone does not serve a client whose sign-in asks the user's second factor.
  if (!session.amr.includes('otp')) {
    const password = passwordConnectionOf(flow.connections);
    if (await secondFactorOf(flow.ctx.db, flow.client, password?.name ?? '', session.userId)) return true;
  }
  return false;
}

/** The `sub` of the id_token_hint: an ID token this service issued to the client (expired ones count). */
async function hintedSubject(flow: FlowContext): Promise<string> {
  const payload = await verifyIssuedToken(flow.ctx, flow.request.idTokenHint ?? '', { ignoreExpiry: true });
  const audience = Array.isArray(payload?.aud) ? payload.aud : [payload?.aud];
  if (!payload || typeof payload.sub !== 'string' || !audience.includes(flow.client.clientId)) {
    throw new OAuthErrorInvalidHint();
  }
  return payload.sub;
}

class OAuthErrorInvalidHint extends OAuthError {
  constructor() {
    super('invalid_request', 400, 'id_token_hint is not an ID token this service issued to the client');
  }
}

/** Consent is asked when the client requires it and the user has not yet consented to every scope asked. */
async function mustConsent(flow: FlowContext, session: BrowserSession): Promise<boolean> {
  const { client, request, ctx } = flow;
  if (request.prompt.includes('consent')) return true;
  if (!client.configuration.consentRequired) return false;
  return !(await hasConsent(ctx.db, session.userId, client.connectionId, request.scopes));
}
