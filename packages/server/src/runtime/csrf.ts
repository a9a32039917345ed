import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppContext } from '../context.js';
import { runtimeDefaults } from './defaults.js';
import { mac, macEquals, macKey } from './mac-key.js';

/** The name of the hidden field every page form carries. */
export const CSRF_FIELD = 'csrf_token';

type CsrfContext = Pick<AppContext, 'db' | 'box' | 'baseUrl'>;

/**
 * The browser's binding: a random value in an HttpOnly cookie, set when a form is first shown. CSRF tokens are
 * bound to it, so a token taken from one browser is worthless in another (login CSRF included).
 */
export function browserBinding(ctx: Pick<AppContext, 'baseUrl'>, c: Context): string {
  const existing = getCookie(c, runtimeDefaults.browserCookie);
  if (existing && /^[A-Za-z0-9_-]{22}$/.test(existing)) return existing;
  const value = randomBytes(16).toString('base64url');
  setCookie(c, runtimeDefaults.browserCookie, value, {
    path: '/runtime',
    httpOnly: true,
    sameSite: 'Lax',
    secure: ctx.baseUrl().startsWith('https:'),
  });
  return value;
}

/**
 * A per-form token: HMAC of the form's purpose, the browser binding and what the form acts on (the interaction,
 * the session), with the runtime's MAC key.
 */
export async function csrfToken(
  ctx: CsrfContext,
  c: Context,
  purpose: string,
  bound: readonly string[],
): Promise<string> {
  return mac(await macKey(ctx), [purpose, browserBinding(ctx, c), ...bound]);
}

/** Whether the posted token is the one `csrfToken` makes for this browser, purpose and binding. */
export async function csrfValid(
  ctx: CsrfContext,
  c: Context,
  purpose: string,
  bound: readonly string[],
  given: string | undefined,
): Promise<boolean> {
  const browser = getCookie(c, runtimeDefaults.browserCookie);
  if (!given || !browser) return false;
  return macEquals(mac(await macKey(ctx), [purpose, browser, ...bound]), given);
}
