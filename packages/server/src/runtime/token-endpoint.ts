import { Hono } from 'hono';
import type { AppContext } from '../context.js';
import {
  authenticateClient,
  ensureGrantAllowed,
  type OAuthClient,
  readClientCredentials,
  usesBasicAuth,
} from './clients.js';
import { corsForClient } from './cors.js';
import { runtimeDefaults, runtimeEvents, runtimePaths } from './defaults.js';
import { clientCredentialsGrant } from './grants/client-credentials.js';
import { type Grant, requiredParam, type TokenResult } from './grants/grant.js';
import { passwordGrant } from './grants/password.js';
import { refreshTokenGrant } from './grants/refresh-token.js';
import { InvalidRequest, OAuthError, ServerError, UnsupportedGrantType } from './oauth-errors.js';
import { logOAuthError } from './oauth-log.js';

export const TOKEN_PATH = runtimePaths.token;

/** The grants this endpoint serves, by RFC grant_type name. */
export const defaultGrants: Readonly<Record<string, Grant>> = {
  password: passwordGrant,
  refresh_token: refreshTokenGrant,
  client_credentials: clientCredentialsGrant,
};

/** A token request as the endpoint needs it, whatever HTTP layer received it. */
export interface TokenRequest {
  authorization?: string | undefined;
  contentType?: string | undefined;
  body: string;
  /** The body was larger than `maxFormBytes` (and is not in `body`). */
  tooLarge?: boolean;
  requestId?: string | undefined;
}

/** The endpoint's answer: always JSON, never cached. */
export interface TokenAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The authenticated client (for CORS), when it got that far. */
  client?: OAuthClient;
}

const jsonHeaders = {
  'Content-Type': 'application/json; charset=UTF-8',
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
};

/**
 * The token endpoint's steps, free of any HTTP framework: read the form, pick the grant, authenticate the client,
 * check it may use the grant, run the grant, answer. `grants` adds or replaces grant types (device code,
 * authorization code). Every OAuth error answered is logged as event 4110.
 */
export function tokenEndpoint(ctx: AppContext, grants: Readonly<Record<string, Grant>> = {}) {
  const byType = { ...defaultGrants, ...grants };
  return async (request: TokenRequest): Promise<TokenAnswer> => {
    let client: OAuthClient | undefined;
    try {
      const form = readForm(request);
      const grantType = requiredParam(form, 'grant_type');
      const grant = Object.hasOwn(byType, grantType) ? byType[grantType] : undefined;
      if (!grant) throw new UnsupportedGrantType(`grant_type ${grantType} is not supported`);
      client = await authenticateClient(ctx, readClientCredentials(request.authorization, form));
      ensureGrantAllowed(client, grantType);
      return { status: 200, headers: jsonHeaders, body: tokenBody(await grant(ctx, client, form)), client };
    } catch (error) {
      const oauth = error instanceof OAuthError ? error : new ServerError();
      if (error instanceof OAuthError) {
        logOAuthError(ctx, undefined, {
          error: oauth.error,
          description: oauth.description,
          path: TOKEN_PATH,
          ...(request.requestId ? { requestId: request.requestId } : {}),
        });
      } else {
        ctx.logger.error('token request failed', { eventId: runtimeEvents.oauthError, error: String(error) });
      }
      const headers: Record<string, string> = { ...jsonHeaders };
      if (oauth.error === 'invalid_client' && usesBasicAuth(request.authorization)) {
        headers['WWW-Authenticate'] = 'Basic realm="idsvc"';
      }
      return { status: oauth.status, headers, body: JSON.stringify(oauth.toJSON()), ...(client ? { client } : {}) };
    }
  };
}

/** The form body (application/x-www-form-urlencoded); a parameter given twice is malformed (RFC 6749 §3.2). */
function readForm(request: TokenRequest): URLSearchParams {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(request.contentType ?? '')) {
    throw new InvalidRequest('the body must be application/x-www-form-urlencoded');
  }
  if (request.tooLarge || request.body.length > runtimeDefaults.maxFormBytes) {
    throw new InvalidRequest('the body is too large');
  }
  const form = new URLSearchParams(request.body);
  const seen = new Set<string>();
  for (const name of form.keys()) {
    if (seen.has(name)) throw new InvalidRequest(`${name} is given more than once`);
    seen.add(name);
  }
  return form;
}

const jsonSafe = /^[\w.~+/=-]*$/;

/** A JSON string of a token value; tokens are base64url and dots, which need no escaping (checked, to be sure). */
const quoted = (value: string) => (jsonSafe.test(value) ? `"${value}"` : JSON.stringify(value));

/** The success body, written directly (tokens are long; a generic serialiser scans every character). */
function tokenBody(result: TokenResult): string {
  let body = `{"access_token":${quoted(result.accessToken)},"token_type":"Bearer","expires_in":${Number(result.expiresIn)},"scope":${JSON.stringify(result.scopes.join(' '))}`;
  if (result.refreshToken !== undefined) body += `,"refresh_token":${quoted(result.refreshToken)}`;
  if (result.idToken !== undefined) body += `,"id_token":${quoted(result.idToken)}`;
  return `${body}}`;
}

/** `POST /runtime/oauth2/token.idp` in the Hono app. */
export function tokenRoute(ctx: AppContext, grants: Readonly<Record<string, Grant>> = {}): Hono {
  const endpoint = tokenEndpoint(ctx, grants);
  const app = new Hono();
  app.post(TOKEN_PATH, async (c) => {
    const tooLarge = Number(c.req.header('content-length') ?? 0) > runtimeDefaults.maxFormBytes;
    const answer = await endpoint({
      authorization: c.req.header('authorization'),
      contentType: c.req.header('content-type'),
      body: tooLarge ? '' : await c.req.text(),
      tooLarge,
      requestId: c.get('requestId' as never) as string | undefined,
    });
    if (answer.client) corsForClient(c, answer.client);
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
  return app;
}
