import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppContext } from '../context.js';
import { authenticateClient, ensureGrantAllowed, readClientCredentials, usesBasicAuth } from './clients.js';
import { clientCredentialsGrant } from './grants/client-credentials.js';
import { type Grant, requiredParam, type TokenResult } from './grants/grant.js';
import { passwordGrant } from './grants/password.js';
import { refreshTokenGrant } from './grants/refresh-token.js';
import { InvalidRequest, OAuthError, oauthErrorResponse, ServerError, UnsupportedGrantType } from './oauth-errors.js';

export const TOKEN_PATH = '/runtime/oauth2/token.idp';
const MAX_FORM_BYTES = 64 * 1024;

/** The grants this endpoint serves, by RFC grant_type name. */
export const defaultGrants: Readonly<Record<string, Grant>> = {
  password: passwordGrant,
  refresh_token: refreshTokenGrant,
  client_credentials: clientCredentialsGrant,
};

/**
 * `POST /runtime/oauth2/token.idp`: read the form, pick the grant, authenticate the client, check it may use the
 * grant, run the grant, answer without caching. `grants` adds or replaces grant types (device code, authorization code).
 */
export function tokenRoute(ctx: AppContext, grants: Readonly<Record<string, Grant>> = {}): Hono {
  const byType = { ...defaultGrants, ...grants };
  const app = new Hono();
  app.post(TOKEN_PATH, async (c) => {
    const authorization = c.req.header('authorization');
    try {
      const form = await readForm(c);
      const grantType = requiredParam(form, 'grant_type');
      const grant = Object.hasOwn(byType, grantType) ? byType[grantType] : undefined;
      if (!grant) throw new UnsupportedGrantType(`grant_type ${grantType} is not supported`);
      const client = await authenticateClient(ctx, readClientCredentials(authorization, form));
      ensureGrantAllowed(client, grantType);
      return tokenResponse(await grant(ctx, client, form));
    } catch (error) {
      return errorResponse(ctx, error, usesBasicAuth(authorization));
    }
  });
  return app;
}

/** The form body (application/x-www-form-urlencoded); a parameter given twice is malformed (RFC 6749 §3.2). */
async function readForm(c: Context): Promise<URLSearchParams> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw new InvalidRequest('the body must be application/x-www-form-urlencoded');
  }
  const body = await c.req.text();
  if (Buffer.byteLength(body) > MAX_FORM_BYTES) throw new InvalidRequest('the body is too large');
  const form = new URLSearchParams(body);
  const names = [...form.keys()];
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated !== undefined) throw new InvalidRequest(`${repeated} is given more than once`);
  return form;
}

function tokenResponse(result: TokenResult): Response {
  const body: Record<string, string | number> = {
    access_token: result.accessToken,
    token_type: 'Bearer',
    expires_in: result.expiresIn,
    scope: result.scopes.join(' '),
  };
  if (result.refreshToken !== undefined) body.refresh_token = result.refreshToken;
  if (result.idToken !== undefined) body.id_token = result.idToken;
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store', Pragma: 'no-cache' },
  });
}

function errorResponse(ctx: AppContext, error: unknown, basicAuthUsed: boolean): Response {
  if (error instanceof OAuthError) return oauthErrorResponse(error, { basicAuthUsed });
  ctx.logger.error('token request failed', { eventId: 4110, error: String(error) });
  return oauthErrorResponse(new ServerError(), { basicAuthUsed });
}
