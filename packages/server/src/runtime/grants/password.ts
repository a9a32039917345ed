import { checkUserPassword, maxFailedAttempts } from '../../auth/lockout.js';
import type { DbOrTx } from '../../db/client.js';
import { runtimeDefaults } from '../defaults.js';
import { issueUserTokens } from '../issue-tokens.js';
import { InvalidClient, InvalidGrant } from '../oauth-errors.js';
import { grantScopes } from '../scopes.js';
import { type Grant, requiredParam } from './grant.js';

const thresholds = new WeakMap<DbOrTx, Map<string, { at: number; value: Promise<number> }>>();

/** The lockout threshold of the client's username-and-password connections, read at most every `clientCacheMs`. */
function lockoutThreshold(db: DbOrTx, names: readonly string[] | undefined, now = Date.now()): Promise<number> {
  let cache = thresholds.get(db);
  if (!cache) {
    cache = new Map();
    thresholds.set(db, cache);
  }
  const key = (names ?? []).join('\n');
  const hit = cache.get(key);
  if (hit && now - hit.at < runtimeDefaults.clientCacheMs) return hit.value;
  const value = maxFailedAttempts(db, names);
  cache.set(key, { at: now, value });
  value.catch(() => cache.delete(key));
  return value;
}

/**
 * RFC 6749 §4.3: resource owner password credentials. Steps: grant the scopes, check the password against the
 * lockout threshold of the client's connections (failures counted in the database, DESIGN 1.3), then issue the
 * tokens as every user grant does (ID token with `openid`, refresh token with `offline_access`).
 */
export const passwordGrant: Grant = async (ctx, client, form) => {
  const username = requiredParam(form, 'username');
  const password = requiredParam(form, 'password');
  const scopes = grantScopes(client, form.get('scope'));
  const connectionNames = client.dependencyConnectionNames.length > 0 ? client.dependencyConnectionNames : undefined;
  const maxAttempts = await lockoutThreshold(ctx.db, connectionNames);
  const check = await checkUserPassword(ctx.db, username, password, maxAttempts);
  if (!check.ok) {
    // The spec's rule: a password that is expired or must be reset answers invalid_client.
    if (check.reason === 'password_not_active') throw new InvalidClient("the user's password is not active");
    throw new InvalidGrant('the user name or password is incorrect');
  }
  return issueUserTokens(ctx, {
    client,
    userId: check.user.id,
    user: check.user,
    scopes,
    authTime: new Date(),
    amr: ['pwd'],
  });
};
