import { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { runtimePaths } from '../defaults.js';
import { readForm } from '../form.js';
import { errorPage } from './error-page.js';
import { runAuthorization } from './flow.js';
import { PageError } from './request.js';

/** `GET` and `POST /runtime/oauth2/authorize.idp` (OpenID Connect Core §3.1.2.1: both methods). */
export function authorizeRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.get(runtimePaths.authorization, (c) => runAuthorization(ctx, c, new URL(c.req.url).searchParams));
  app.post(runtimePaths.authorization, async (c) => {
    const form = await readForm(c).catch(() => undefined);
    if (!form) return errorPage(ctx, c, new PageError('invalid_request', 'the body must be a form'), undefined);
    return runAuthorization(ctx, c, form);
  });
  return app;
}
