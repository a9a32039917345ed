import type { Context } from 'hono';
import type { AppContext } from '../context.js';
import { runtimeEvents } from './defaults.js';

export interface OAuthErrorFields {
  error: string;
  description?: string;
  clientId?: string | undefined;
  [field: string]: unknown;
}

function requestFields(c: Context | undefined): Record<string, unknown> {
  if (!c) return {};
  const requestId = c.get('requestId' as never) as unknown;
  return { path: c.req.path, ...(typeof requestId === 'string' ? { requestId } : {}) };
}

/** Log event 4110: an OAuth 2.0 error answered by the runtime (every one of them). */
export function logOAuthError(ctx: Pick<AppContext, 'logger'>, c: Context | undefined, fields: OAuthErrorFields): void {
  ctx.logger.warn(`OAuth error ${fields.error}`, { eventId: runtimeEvents.oauthError, ...requestFields(c), ...fields });
}

/** Log event 4111: an error response received from an upstream identity provider. */
export function logUpstreamError(
  ctx: Pick<AppContext, 'logger'>,
  c: Context | undefined,
  fields: OAuthErrorFields & { connection: string },
): void {
  ctx.logger.warn(`upstream identity provider error ${fields.error}`, {
    eventId: runtimeEvents.upstreamError,
    ...requestFields(c),
    ...fields,
  });
}
