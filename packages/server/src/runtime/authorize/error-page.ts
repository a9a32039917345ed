import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { logOAuthError } from '../oauth-log.js';
import { ErrorPage } from '../pages/error.js';
import { sendPage, textsFor } from '../pages/render.js';
import type { PageError } from './request.js';

/** The error page (400), logged as event 4110: the response cannot go to an untrusted address. */
export async function errorPage(
  ctx: AppContext,
  c: Context,
  error: PageError,
  clientId: string | undefined,
  uiLocales?: string | null,
): Promise<Response> {
  logOAuthError(ctx, c, { error: error.error, description: error.description, clientId });
  const t = await textsFor(ctx, c, uiLocales ?? undefined);
  return sendPage(ctx, c, ErrorPage({ t, error: error.error, description: error.description }), {
    status: error.status as 400,
  });
}
