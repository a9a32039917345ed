import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { randomSecret } from '../../crypto/digest.js';

/** The double-submit cookie of the self-service forms. */
export const CSRF_COOKIE = 'idsvc_selfservice_csrf';
export const CSRF_FIELD = 'csrf';

const wellFormed = /^[A-Za-z0-9_-]{43}$/;

/**
 * The CSRF value of a form: the browser's cookie value when it has a good one (so that two open pages both work),
 * else a new random one, set as an HttpOnly, SameSite=Strict cookie. The form repeats it in a hidden field.
 */
export function issueCsrf(c: Context, secure: boolean): string {
  const current = getCookie(c, CSRF_COOKIE);
  const value = current && wellFormed.test(current) ? current : randomSecret(32);
  setCookie(c, CSRF_COOKIE, value, { path: '/runtime', httpOnly: true, sameSite: 'Strict', secure, maxAge: 3600 });
  return value;
}

/** True when the submitted field equals the cookie (compared in constant time). */
export function csrfValid(c: Context, submitted: string): boolean {
  const cookie = getCookie(c, CSRF_COOKIE);
  if (!cookie || !wellFormed.test(cookie) || !wellFormed.test(submitted)) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(submitted));
}
