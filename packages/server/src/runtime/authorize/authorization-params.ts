import type { AppContext } from '../../context.js';
import { findClient } from '../clients.js';
import { OAuthError } from '../oauth-errors.js';
import { mustPushAuthorizationRequests } from './pushed-params.js';
import { consumePushedRequest } from './pushed-requests.js';
import { PageError } from './request.js';
import { type RequestObjectContext, requestObjectParams } from './request-object.js';

/**
 * The parameters of a request arriving at the authorization endpoint. With `request_uri` (RFC 9126 §4): the pushed
 * request of the `client_id` it names, used once, whose parameters replace the query's (the query's others are
 * ignored). With `request` (RFC 9101): the parameters of the client's verified request object, likewise. Otherwise the
 * query itself. A client may be required to push its requests, or to sign them. Problems are PageErrors (no redirect
 * address is trusted yet: with a request object it comes from the object): a missing or unknown client_id is
 * invalid_request, a `request_uri` that is unknown, used, expired or another client's is invalid_request_uri, a
 * request object that does not verify is invalid_request_object.
 */
export async function authorizationParams(
  ctx: Pick<AppContext, 'db'> & RequestObjectContext,
  query: URLSearchParams,
): Promise<URLSearchParams> {
  const clientIds = query.getAll('client_id');
  const client = clientIds.length === 1 ? await findClient(ctx.db, clientIds[0]) : undefined;
  if (query.has('request_uri') && !query.has('request')) {
    if (!client) throw new PageError('invalid_request', 'unknown client_id');
    const requestUris = query.getAll('request_uri');
    if (requestUris.length !== 1) throw new PageError('invalid_request', 'request_uri is given more than once');
    const pushed = await consumePushedRequest(ctx.db, client.clientId, requestUris[0]);
    if (!pushed) {
      throw new PageError('invalid_request_uri', 'request_uri is unknown, expired, already used or not of this client');
    }
    return pushed;
  }
  if (!client) {
    if (query.has('request')) throw new PageError('invalid_request', 'unknown client_id');
    return query;
  }
  if (mustPushAuthorizationRequests(client)) {
    throw new PageError('invalid_request', 'this client must push its authorization requests');
  }
  try {
    return await requestObjectParams(ctx, client, query);
  } catch (error) {
    if (error instanceof OAuthError) throw new PageError(error.error, error.description);
    throw error;
  }
}
