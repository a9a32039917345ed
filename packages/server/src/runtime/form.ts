import type { Context } from 'hono';
import { runtimeDefaults } from './defaults.js';
import { InvalidRequest } from './oauth-errors.js';

/**
 * The request's form body (application/x-www-form-urlencoded, at most `maxFormBytes`); with `unique`, a
 * parameter given twice is malformed (RFC 6749 §3.2). Throws InvalidRequest.
 */
export async function readForm(c: Context, options: { unique?: boolean } = {}): Promise<URLSearchParams> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw new InvalidRequest('the body must be application/x-www-form-urlencoded');
  }
  const length = Number(c.req.header('content-length') ?? 0);
  if (length > runtimeDefaults.maxFormBytes) throw new InvalidRequest('the body is too large');
  const body = await c.req.text();
  if (body.length > runtimeDefaults.maxFormBytes) throw new InvalidRequest('the body is too large');
  const form = new URLSearchParams(body);
  if (options.unique) {
    const seen = new Set<string>();
    for (const name of form.keys()) {
      if (seen.has(name)) throw new InvalidRequest(`${name} is given more than once`);
      seen.add(name);
    }
  }
  return form;
}
