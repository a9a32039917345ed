import type { OAuthClient } from '../clients.js';
import { InvalidRequest, OAuthError } from '../oauth-errors.js';
import { PageError, parseAuthorizationRequest, responseTargetOf } from './request.js';
import { type RequestObjectContext, requestObjectParams } from './request-object.js';

/** The form fields that authenticate the client at an endpoint: not part of the authorization request. */
const clientAuthenticationFields = new Set(['client_secret', 'client_assertion', 'client_assertion_type']);

/** The client's authorization requests come by push only: its `requirePushedAuthorizationRequests` is true. */
export function mustPushAuthorizationRequests(client: OAuthClient): boolean {
  return client.configuration.requirePushedAuthorizationRequests;
}

/**
 * The authorization request a client pushed (RFC 9126 §2.1), checked as the authorization endpoint checks one:
 * the form without the client's credentials, `client_id` that of the authenticated client. Every problem is an
 * OAuthError for a JSON answer, those the authorization endpoint shows on its error page (client and redirect
 * address) too; a `request_uri` inside a push, or a `client_id` other than the authenticated client's, is
 * invalid_request.
 */
export function pushedAuthorizationParams(client: OAuthClient, form: URLSearchParams): URLSearchParams {
  const formClientId = form.get('client_id');
  if (formClientId !== null && formClientId !== client.clientId) {
    throw new InvalidRequest('client_id differs from the authenticated client');
  }
  if (form.has('request_uri')) throw new InvalidRequest('request_uri is not allowed in a pushed authorization request');
  const params = new URLSearchParams();
  for (const [name, value] of form) if (!clientAuthenticationFields.has(name)) params.append(name, value);
  params.set('client_id', client.clientId);
  try {
    parseAuthorizationRequest(client, params, responseTargetOf(client, params));
  } catch (error) {
    if (error instanceof PageError) throw new OAuthError(error.error, error.status, error.description);
    throw error;
  }
  return params;
}

/**
 * The authorization request of a push: with `request`, the parameters of the client's verified request object (RFC
 * 9126 §3, RFC 9101: the form's others, but for client authentication, are ignored), else the form's; then checked by
 * `pushedAuthorizationParams`. A request object that does not verify is invalid_request_object; a push without one
 * from a client that must sign its requests is invalid_request.
 */
export async function pushedRequestParams(
  ctx: RequestObjectContext,
  client: OAuthClient,
  form: URLSearchParams,
): Promise<URLSearchParams> {
  const formClientId = form.get('client_id');
  if (formClientId !== null && formClientId !== client.clientId) {
    throw new InvalidRequest('client_id differs from the authenticated client');
  }
  return pushedAuthorizationParams(client, await requestObjectParams(ctx, client, form));
}
