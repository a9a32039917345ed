import { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { clientRequest, noStoreJson } from '../client-request.js';
import { runtimePaths } from '../defaults.js';
import { pushedRequestParams } from './pushed-params.js';
import { storePushedRequest } from './pushed-requests.js';

/**
 * `POST /runtime/oauth2/par.idp` (RFC 9126). Steps: authenticate the client as at the token endpoint (public
 * clients by id), check the authorization request in the form (or in its request object, RFC 9101) as the
 * authorization endpoint would, keep it, and answer 201 with the `request_uri` that names it and its `expires_in`.
 * Errors are JSON OAuth errors.
 */
export function pushedAuthorizationRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.pushedAuthorization, (c) =>
    clientRequest(ctx, c, {}, async (client, form) => {
      const params = await pushedRequestParams(ctx, client, form);
      const pushed = await storePushedRequest(ctx.db, client.clientId, params);
      return noStoreJson({ request_uri: pushed.requestUri, expires_in: pushed.expiresIn }, 201);
    }),
  );
  return app;
}
