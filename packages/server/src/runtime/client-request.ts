import type { Context } from 'hono';
import type { AppContext } from '../context.js';
import { authenticateClient, type OAuthClient, readClientCredentials, usesBasicAuth } from './clients.js';
import { corsForClient } from './cors.js';
import { readForm } from './form.js';
import { InvalidClient, OAuthError, oauthErrorResponse, ServerError } from './oauth-errors.js';
import { logOAuthError } from './oauth-log.js';

export interface ClientRequestOptions {
  /** Refuse public clients (they cannot authenticate). */
  confidentialOnly?: boolean;
}

/**
 * The shared steps of the endpoints that a client calls with a form (revocation, introspection): read the form,
 * authenticate the client, then run `body`. OAuth errors become RFC 6749 JSON answers, logged as event 4110.
 */
export async function clientRequest(
  ctx: AppContext,
  c: Context,
  options: ClientRequestOptions,
  body: (client: OAuthClient, form: URLSearchParams) => Promise<Response>,
): Promise<Response> {
  const authorization = c.req.header('authorization');
  try {
    const form = await readForm(c, { unique: true });
    const client = await authenticateClient(ctx, readClientCredentials(authorization, form));
    corsForClient(c, client);
    if (options.confidentialOnly && client.configuration.publicClient) {
      throw new InvalidClient('only an authenticated client may call this endpoint');
    }
    return await body(client, form);
  } catch (error) {
    const oauth = error instanceof OAuthError ? error : new ServerError();
    if (!(error instanceof OAuthError)) ctx.logger.error('client request failed', { error: String(error) });
    logOAuthError(ctx, c, { error: oauth.error, description: oauth.description });
    return oauthErrorResponse(oauth, { basicAuthUsed: usesBasicAuth(authorization) });
  }
}

export function noStoreJson(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store', Pragma: 'no-cache' },
  });
}
