import type { DbOrTx } from '../../db/client.js';
import { findClient } from '../clients.js';
import { mustPushAuthorizationRequests } from './pushed-params.js';
import { consumePushedRequest } from './pushed-requests.js';
import { PageError } from './request.js';

/**
 * The parameters of a request arriving at the authorization endpoint. With `request_uri` (RFC 9126 §4): the pushed
 * request of the `client_id` it names, used once, whose parameters replace the query's (the query's others are
 * ignored). Without it: the query itself, unless the client must push its requests. Problems are PageErrors (no
 * redirect address is trusted yet): a missing or unknown client_id is invalid_request, a `request_uri` that is
 * unknown, used, expired or another client's is invalid_request_uri.
 */
export async function authorizationParams(db: DbOrTx, query: URLSearchParams): Promise<URLSearchParams> {
  const clientIds = query.getAll('client_id');
  const client = clientIds.length === 1 ? await findClient(db, clientIds[0]) : undefined;
  if (!query.has('request_uri')) {
    if (client && mustPushAuthorizationRequests(client)) {
      throw new PageError('invalid_request', 'this client must push its authorization requests');
    }
    return query;
  }
  if (!client) throw new PageError('invalid_request', 'unknown client_id');
  const requestUris = query.getAll('request_uri');
  if (requestUris.length !== 1) throw new PageError('invalid_request', 'request_uri is given more than once');
  const pushed = await consumePushedRequest(db, client.clientId, requestUris[0]);
  if (!pushed) {
    throw new PageError('invalid_request_uri', 'request_uri is unknown, expired, already used or not of this client');
  }
  return pushed;
}
