import { Hono } from 'hono';
import type { AppContext } from '../context.js';

export const JWKS_PATH = '/runtime/oauth2/jwks.idp';

/** `GET /runtime/oauth2/jwks.idp`: the published signing keys. Cached briefly; rotation publishes keys in advance. */
export function jwksRoute(ctx: Pick<AppContext, 'keys'>): Hono {
  const app = new Hono();
  app.get(JWKS_PATH, async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(await ctx.keys.jwks());
  });
  return app;
}
