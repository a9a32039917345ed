import type { Context, MiddlewareHandler } from 'hono';
import type { AppContext } from '../context.js';
import type { OAuthClient } from './clients.js';
import { runtimePaths } from './defaults.js';
import { origin as canonicalOrigin, runtimeSettings } from './settings.js';

/** The endpoints browsers may call from other origins; pages are not among them. */
const corsPaths = new Set<string>([
  runtimePaths.discovery,
  runtimePaths.jwks,
  runtimePaths.token,
  runtimePaths.pushedAuthorization,
  runtimePaths.userinfo,
  runtimePaths.revocation,
  runtimePaths.introspection,
  runtimePaths.deviceAuthorization,
]);

const clientOrigins = new WeakMap<Request, readonly string[]>();

/** Tells the CORS layer which client a response is for: its `allowedCorsOrigins` then apply. */
export function corsForClient(c: Context, client: OAuthClient): void {
  clientOrigins.set(c.req.raw, client.configuration.allowedCorsOrigins.map(canonicalOrigin));
}

/**
 * CORS (DESIGN 1.6): only origins of system setup's CORS domains, or of the client's `allowedCorsOrigins`, get
 * `Access-Control-Allow-Origin`, on preflights and responses alike. A preflight does not name its client, so there
 * any client's origin counts; a response for a known client checks that client's list.
 */
export function cors(ctx: Pick<AppContext, 'db'>): MiddlewareHandler {
  return async (c, next) => {
    if (!corsPaths.has(c.req.path)) return next();
    const requestOrigin = c.req.header('origin');
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      const settings = await runtimeSettings(ctx);
      c.header('Vary', 'Origin');
      if (
        requestOrigin &&
        (settings.corsDomains.includes(canonicalOrigin(requestOrigin)) ||
          settings.clientCorsOrigins.has(canonicalOrigin(requestOrigin)))
      ) {
        c.header('Access-Control-Allow-Origin', requestOrigin);
        c.header('Access-Control-Allow-Methods', 'GET, POST');
        c.header('Access-Control-Allow-Headers', 'Authorization, Content-Type');
        c.header('Access-Control-Max-Age', '600');
      }
      return c.body(null, 204);
    }
    await next();
    if (!requestOrigin) return;
    c.res.headers.append('Vary', 'Origin');
    const wanted = canonicalOrigin(requestOrigin);
    const settings = await runtimeSettings(ctx);
    const forClient = clientOrigins.get(c.req.raw);
    const allowed =
      settings.corsDomains.includes(wanted) ||
      (forClient === undefined ? settings.clientCorsOrigins.has(wanted) : forClient.includes(wanted));
    if (allowed) {
      c.res.headers.set('Access-Control-Allow-Origin', requestOrigin);
      c.res.headers.set('Access-Control-Expose-Headers', 'WWW-Authenticate');
    }
  };
}
