import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from './api-error.js';
import type { AppEnv } from './env.js';
import type { Logger } from './logger.js';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

const requestIdPattern = /^[\w.:-]{1,128}$/;

/** An error answer as it left the server: what the caller was told, under the request id. */
export interface ErrorEvent {
  requestId: string;
  method: string;
  /** Without the query string (it can hold secrets). */
  path: string;
  status: number;
  error: string;
  message: string;
}

/** Keeps error answers (4xx and 5xx) durably, so that they can be looked up by their request id. */
export type ErrorRecorder = (event: ErrorEvent) => Promise<void>;

const recordTimeoutMs = 2000;

/**
 * The bare application: request ids, access log, body limit, error handling, health. Routes are added by the caller.
 * Every error answer is handed to `recordError` when given (a failing or slow recorder only logs).
 */
export function createHttpApp(logger: Logger, ready: () => Promise<void>, recordError?: ErrorRecorder): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const record = async (c: Context<AppEnv>, status: number, body: { error: string; message: string }) => {
    // An unauthenticated caller must not be able to make the server write: 401s are not recorded.
    if (!recordError || status === 401) return;
    const event = { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, status, ...body };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        recordError(event),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), recordTimeoutMs);
        }),
      ]);
    } catch (error) {
      logger.warn('could not record an error answer', {
        requestId: event.requestId,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      clearTimeout(timer);
    }
  };

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

  app.onError(async (error, c) => {
    const requestId = c.get('requestId');
    if (error instanceof ApiError) {
      if (error.code === 'unauthorized') c.header('WWW-Authenticate', 'Bearer realm="idsvc"');
      await record(c, error.status, { error: error.code, message: error.message });
      const body = { error: error.code, message: error.message, details: error.details, requestId };
      return c.json(body, error.status as ContentfulStatusCode);
    }
    logger.error('unhandled error', {
      requestId,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    const body = { error: 'server_error', message: 'an unexpected error occurred' };
    await record(c, 500, body);
    return c.json({ ...body, requestId }, 500);
  });

  app.notFound(async (c) => {
    const body = { error: 'not_found', message: `no route for ${c.req.method} ${c.req.path}` };
    return c.json({ ...body, requestId: c.get('requestId') }, 404);
  });

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
