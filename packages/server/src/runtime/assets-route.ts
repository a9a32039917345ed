import { Hono } from 'hono';
import { runtimePaths } from './defaults.js';
import { stylesheet } from './pages/layout.js';

/** The pages' one stylesheet (pages allow no inline style). */
export function assetsRoute(): Hono {
  const app = new Hono();
  app.get(runtimePaths.stylesheet, (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(stylesheet, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });
  return app;
}
