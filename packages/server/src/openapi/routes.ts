import { catalog } from '@idsvc/shared';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../http/env.js';
import { openApiDocument } from './document.js';

/** `GET /api/rest/v2/openapi.json` and `GET /api/docs`: public, built once. */
export function openApiRoutes(baseUrl: () => string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  let document: object | undefined;
  app.get('/api/rest/v2/openapi.json', (c) => {
    document ??= openApiDocument(baseUrl());
    return c.json(document);
  });
  app.get('/api/docs', (c) =>
    c.html(html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>idsvc admin API</title>
    <style>
      body { font-family: system-ui, sans-serif; margin: 2rem; }
      td, th { padding: 0.2rem 0.6rem; text-align: left; }
      code { font-size: 0.9rem; }
    </style>
  </head>
  <body>
    <h1>idsvc admin API</h1>
    <p>Machine-readable: <a href="/api/rest/v2/openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
    <table>
      <tr><th>operation</th><th>method</th><th>path</th><th>role</th><th>summary</th></tr>
      ${catalog.map(
        (op) =>
          html`<tr><td><code>${op.operationId}</code></td><td>${op.method}</td><td><code>${op.path}</code></td><td>${op.role}</td><td>${op.summary}</td></tr>`,
      )}
    </table>
  </body>
</html>`),
  );
  return app;
}
