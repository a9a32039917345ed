import type { Context } from 'hono';
import { Hono } from 'hono';
import { USER_ID_CLAIM } from '../auth/roles.js';
import type { AppContext } from '../context.js';
import { loadUser, releasedClaims } from './claims.js';
import { findClient } from './clients.js';
import { corsForClient } from './cors.js';
import { runtimePaths } from './defaults.js';
import { readForm } from './form.js';
import { InsufficientScope, InvalidRequest, InvalidToken, OAuthError } from './oauth-errors.js';
import { logOAuthError } from './oauth-log.js';
import { parseScope } from './scopes.js';
import { isAccessToken, isRevoked, verifyIssuedToken } from './token-verify.js';
import { claimTransformerOf } from './transform-claims.js';

/**
 * `GET` and `POST /runtime/openidconnect/userinfo.idp` (OpenID Connect Core §5.3): the access token in the
 * Authorization header (GET or POST) or as the form field `access_token` (POST, RFC 6750 §2.2). Steps: read the
 * token, verify it (signature, expiry, not revoked, an access token with `openid`), load the user, release the
 * claims of its scopes.
 */
export function userinfoRoute(ctx: AppContext): Hono {
  const app = new Hono();
  const handler = async (c: Context) => {
    try {
      const token = await readToken(c);
      const payload = await verifyIssuedToken(ctx, token);
      if (!payload || !isAccessToken(payload)) throw new InvalidToken('the access token is invalid or expired');
      if (await isRevoked(ctx, payload.jti)) throw new InvalidToken('the access token was revoked');
      const scopes = parseScope(payload.scope as string);
      if (!scopes.includes('openid')) throw new InsufficientScope('the access token lacks the openid scope');
      const userId = payload[USER_ID_CLAIM];
      const client = await findClient(ctx.db, payload.client_id as string);
      const who = typeof userId === 'string' ? await loadUser(ctx.db, userId) : undefined;
      if (client) corsForClient(c, client);
      if (!client || !who?.user.active || who.user.locked) {
        throw new InvalidToken('the access token does not belong to a user who may sign in');
      }
      const claims = await releasedClaims(ctx.db, client, who, scopes, claimTransformerOf(ctx));
      c.header('Cache-Control', 'no-store');
      c.header('Pragma', 'no-cache');
      return c.json(claims);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      logOAuthError(ctx, c, { error: error.error, description: error.description });
      return bearerError(error);
    }
  };
  app.get(runtimePaths.userinfo, handler);
  app.post(runtimePaths.userinfo, handler);
  return app;
}

/** The bearer token of the request: the header, or the form body of a POST; not both (RFC 6750 §2). */
async function readToken(c: Context): Promise<string> {
  const header = c.req.header('authorization');
  const match = header === undefined ? undefined : /^Bearer +(\S+) *$/i.exec(header);
  let fromBody: string | undefined;
  if (c.req.method === 'POST' && /^application\/x-www-form-urlencoded/i.test(c.req.header('content-type') ?? '')) {
    const form = await readForm(c);
    fromBody = form.get('access_token') ?? undefined;
  }
  if (match && fromBody !== undefined) throw new InvalidRequest('send the access token once');
  if (match) return match[1];
  if (fromBody !== undefined) return fromBody;
  if (header !== undefined) throw new InvalidRequest('the Authorization header is not a bearer token');
  throw new InvalidToken('an access token is required');
}

/** RFC 6750 §3: the error in `WWW-Authenticate` and the body. */
function bearerError(error: OAuthError): Response {
  const status = error.error === 'invalid_token' ? 401 : error.error === 'insufficient_scope' ? 403 : 400;
  const challenge = `Bearer realm="idsvc", error="${error.error}", error_description="${error.description.replace(/["\\]/g, '')}"`;
  return new Response(JSON.stringify(error.toJSON()), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=UTF-8',
      'Cache-Control': 'no-store',
      'WWW-Authenticate': challenge,
    },
  });
}
