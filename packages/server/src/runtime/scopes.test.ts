import { describe, expect, it } from 'vitest';
import type { OAuthClient } from './clients.js';
import { InvalidScope } from './oauth-errors.js';
import { grantScopes, issuesRefreshToken, parseScope } from './scopes.js';

const client = (scopes: string[], allowedGrantTypes: string[]) =>
  ({ scopes, configuration: { allowedGrantTypes } }) as unknown as OAuthClient;

describe('scopes', () => {
  it('parses a space-separated scope without repeats', () => {
    expect(parseScope('  openid  email openid ')).toEqual(['openid', 'email']);
    expect(parseScope(null)).toEqual([]);
  });

  it("grants asked-for scopes the client may ask for, else the client's scopes but offline_access", () => {
    const c = client(['identify*scim', 'offline_access', 'openid'], ['password']);
    expect(grantScopes(c, 'openid offline_access')).toEqual(['openid', 'offline_access']);
    expect(grantScopes(c, '')).toEqual(['identify*scim', 'openid']);
    expect(() => grantScopes(c, 'openid phone')).toThrow(InvalidScope);
  });

  it('issues a refresh token only for offline_access with the refresh_token grant allowed', () => {
    expect(issuesRefreshToken(client([], ['password', 'refresh_token']), ['offline_access'])).toBe(true);
    expect(issuesRefreshToken(client([], ['password']), ['offline_access'])).toBe(false);
    expect(issuesRefreshToken(client([], ['password', 'refresh_token']), ['openid'])).toBe(false);
  });
});
