import { Hono } from 'hono';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/env.js';
import { jwksRoute } from './jwks-route.js';
import { tokenRoute } from './token-endpoint.js';

/** The browser- and client-facing endpoints under /runtime. */
export function runtimeRoutes(ctx: AppContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.route('/', tokenRoute(ctx));
  app.route('/', jwksRoute(ctx));
  return app;
}
