import { type Context, Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { runtimePaths } from '../defaults.js';
import { readForm } from '../form.js';
import { authorizationParams } from './authorization-params.js';
import { errorPage } from './error-page.js';
import { runAuthorization } from './flow.js';
import { PageError } from './request.js';

/**
 * `GET` and `POST /runtime/oauth2/authorize.idp` (OpenID Connect Core §3.1.2.1: both methods); a pushed request
 * (RFC 9126) named by `request_uri` stands for the query's parameters.
 */
export function authorizeRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.get(runtimePaths.authorization, (c) => authorize(ctx, c, new URL(c.req.url).searchParams));
  app.post(runtimePaths.authorization, async (c) => {
    const form = await readForm(c).catch(() => undefined);
    if (!form) return errorPage(ctx, c, new PageError('invalid_request', 'the body must be a form'), undefined);
    return authorize(ctx, c, form);
  });
  return app;
}

async function authorize(ctx: AppContext, c: Context, query: URLSearchParams): Promise<Response> {
  let params: URLSearchParams;
  try {
    params = await authorizationParams(ctx, query);
  } catch (error) {
    if (error instanceof PageError)
      return errorPage(ctx, c, error, query.get('client_id') ?? undefined, query.get('ui_locales'));
    throw error;
  }
  return runAuthorization(ctx, c, params);
}
