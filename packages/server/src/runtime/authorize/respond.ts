import type { Context } from 'hono';
import { rolesOfUser } from '../../auth/roles.js';
import type { AppContext } from '../../context.js';
import { issueAccessToken, issuerOf } from '../access-token.js';
import { loadUser, releasedClaims, subjectFor } from '../claims.js';
import type { OAuthClient } from '../clients.js';
import { storeCode } from '../codes.js';
import { issueIdToken } from '../id-token.js';
import { InvalidRequest, type OAuthError } from '../oauth-errors.js';
import { logOAuthError } from '../oauth-log.js';
import { FormPostPage } from '../pages/error.js';
import { scriptNonce, sendPage, textsFor } from '../pages/render.js';
import { addClientToSession, type BrowserSession } from '../session.js';
import { claimTransformerOf } from '../transform-claims.js';
import type { AuthorizationRequest, ResponseTarget } from './request.js';

/**
 * Sends the response to the registered redirect address in the response mode: query or fragment by redirect,
 * form_post by an auto-submitting form. `iss` is always added (RFC 9207), `state` when the request had one.
 */
export async function deliver(
  ctx: AppContext,
  c: Context,
  target: ResponseTarget,
  params: Record<string, string>,
  uiLocales?: string,
): Promise<Response> {
  const fields: Record<string, string> = { ...params };
  // RFC 6749 §4.1.2.1: error_description holds printable ASCII except `"` and `\`.
  if (fields.error_description !== undefined)
    fields.error_description = fields.error_description.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
  if (target.state !== undefined) fields.state = target.state;
  fields.iss = issuerOf(ctx);
  if (target.responseMode === 'form_post') {
    const nonce = scriptNonce();
    const t = await textsFor(ctx, c, uiLocales);
    const page = FormPostPage({ t, action: target.redirectUri, fields, nonce });
    return sendPage(ctx, c, page, { formTargets: [target.redirectUri], scriptNonce: nonce });
  }
  const url = new URL(target.redirectUri);
  if (target.responseMode === 'query') {
    for (const [name, value] of Object.entries(fields)) url.searchParams.append(name, value);
  } else {
    url.hash = new URLSearchParams(fields).toString();
  }
  c.header('Cache-Control', 'no-store');
  return c.redirect(url.toString(), c.req.method === 'GET' ? 302 : 303);
}

/** An OAuth error sent back to the client's registered redirect address (and logged as event 4110). */
export function redirectError(
  ctx: AppContext,
  c: Context,
  target: ResponseTarget,
  error: OAuthError,
  clientId: string,
  uiLocales?: string,
): Promise<Response> {
  logOAuthError(ctx, c, { error: error.error, description: error.description, clientId });
  return deliver(ctx, c, target, { error: error.error, error_description: error.description }, uiLocales);
}

/**
 * The authorization response for a signed-in person: a code, an access token and/or an ID token as the response
 * type asks (hybrid responses carry `c_hash` and `at_hash` in the ID token), recorded in the session's clients.
 */
export async function issueAuthorizationResponse(
  ctx: AppContext,
  c: Context,
  client: OAuthClient,
  request: AuthorizationRequest,
  session: BrowserSession,
): Promise<Response> {
  const words = request.responseType.split(' ');
  const params: Record<string, string> = {};
  if (words.includes('code')) {
    params.code = await storeCode(ctx.db, {
      clientId: client.clientId,
      userId: session.userId,
      sessionId: session.id,
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      nonce: request.nonce,
      codeChallenge: request.codeChallenge,
      authTime: session.authTime,
      acr: session.acr,
    });
  }
  const who = await loadUser(ctx.db, session.userId);
  if (!who) throw new InvalidRequest('the signed-in user no longer exists');
  // Tokens from this endpoint never carry offline access: a refresh token only comes from the token endpoint.
  const scopes = request.scopes.filter((s) => s !== 'offline_access');
  if (words.includes('token')) {
    const roles = await rolesOfUser(ctx.db, session.userId);
    const subject = subjectFor(client, who);
    const access = await issueAccessToken(ctx, client, {
      subject,
      userId: session.userId,
      scopes,
      roles,
      ...(session.acr ? { acr: session.acr } : {}),
    });
    Object.assign(params, {
      access_token: access.accessToken,
      token_type: 'Bearer',
      expires_in: String(access.expiresIn),
      scope: scopes.join(' '),
    });
  }
  if (words.includes('id_token')) {
    const claims = await releasedClaims(ctx.db, client, who, request.scopes, claimTransformerOf(ctx));
    params.id_token = await issueIdToken(ctx, client, {
      claims,
      authTime: session.authTime,
      nonce: request.nonce,
      acr: session.acr,
      amr: session.amr,
      sessionId: session.id,
      accessToken: params.access_token,
      code: params.code,
    });
  }
  await addClientToSession(ctx.db, session.id, client.clientId);
  return deliver(ctx, c, request, params, request.uiLocales);
}
