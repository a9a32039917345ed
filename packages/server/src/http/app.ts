import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from './api-error.js';
import type { AppEnv } from './env.js';
import type { Logger } from './logger.js';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

const requestIdPattern = /^[\w.:-]{1,128}$/;

/** The bare application: request ids, access log, body limit, error handling, health. Routes are added by the caller. */
export function createHttpApp(logger: Logger, ready: () => Promise<void>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && requestIdPattern.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    logger.debug('request', {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });

  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError('payload_too_large', `the body is larger than ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );

  app.onError((error, c) => {
    const requestId = c.get('requestId');
    if (error instanceof ApiError) {
      if (error.code === 'unauthorized') c.header('WWW-Authenticate', 'Bearer realm="idsvc"');
      const body = { error: error.code, message: error.message, details: error.details, requestId };
      return c.json(body, error.status as ContentfulStatusCode);
    }
    logger.error('unhandled error', {
      requestId,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return c.json({ error: 'server_error', message: 'an unexpected error occurred', requestId }, 500);
  });

  app.notFound((c) =>
    c.json(
      { error: 'not_found', message: `no route for ${c.req.method} ${c.req.path}`, requestId: c.get('requestId') },
      404,
    ),
  );

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await ready();
      return c.json({ status: 'ready' });
    } catch {
      return c.json({ status: 'unavailable' }, 503);
    }
  });
  return app;
}
