import type { Context } from 'hono';
import { runtimeDefaults } from '../defaults.js';

/**
 * The form an identity provider posted (a SAML message, a WS-Federation token), or undefined when it is not a form
 * or is larger than such a message needs (`maxSamlFormBytes`).
 */
export async function readFederationForm(c: Context): Promise<URLSearchParams | undefined> {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(c.req.header('content-type') ?? '')) return undefined;
  if (Number(c.req.header('content-length') ?? 0) > runtimeDefaults.maxSamlFormBytes) return undefined;
  const body = await c.req.text();
  return body.length > runtimeDefaults.maxSamlFormBytes ? undefined : new URLSearchParams(body);
}
