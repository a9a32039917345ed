import type { OAuthClient } from './clients.js';
import { InvalidScope } from './oauth-errors.js';

export const OFFLINE_ACCESS = 'offline_access';

export function parseScope(scope: string | null | undefined): string[] {
  return [...new Set((scope ?? '').split(' ').filter((s) => s.length > 0))];
}

/**
 * The scopes granted for a request: each asked-for scope must be one the client may ask for (InvalidScope
 * otherwise); when none is asked for, every scope of the client except offline_access.
 */
export function grantScopes(client: OAuthClient, requested: string | null | undefined): string[] {
  const asked = parseScope(requested);
  if (asked.length === 0) return client.scopes.filter((s) => s !== OFFLINE_ACCESS);
  const refused = asked.filter((s) => !client.scopes.includes(s));
  if (refused.length > 0) throw new InvalidScope(`the client may not ask for: ${refused.join(' ')}`);
  return asked;
}

/** A refresh token is issued when offline_access was granted and the client may use the refresh_token grant. */
export function issuesRefreshToken(client: OAuthClient, scopes: readonly string[]): boolean {
  return scopes.includes(OFFLINE_ACCESS) && client.configuration.allowedGrantTypes.includes('refresh_token');
}
