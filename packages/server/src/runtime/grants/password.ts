import { checkUserPassword, maxFailedAttempts } from '../../auth/lockout.js';
import { rolesOfUser } from '../../auth/roles.js';
import { issueAccessToken } from '../access-token.js';
import { InvalidClient, InvalidGrant } from '../oauth-errors.js';
import { storeRefreshToken } from '../refresh-tokens.js';
import { grantScopes, issuesRefreshToken } from '../scopes.js';
import { type Grant, requiredParam } from './grant.js';

/** RFC 6749 §4.3: resource owner password credentials, with lockout counting. */
export const passwordGrant: Grant = async (ctx, client, form) => {
  const username = requiredParam(form, 'username');
  const password = requiredParam(form, 'password');
  const scopes = grantScopes(client, form.get('scope'));
  const connectionNames = client.dependencyConnectionNames.length > 0 ? client.dependencyConnectionNames : undefined;
  const maxAttempts = await maxFailedAttempts(ctx.db, connectionNames);
  const check = await checkUserPassword(ctx.db, username, password, maxAttempts);
  if (!check.ok) {
    // The spec's rule: a password that is expired or must be reset answers invalid_client.
    if (check.reason === 'password_not_active') throw new InvalidClient("the user's password is not active");
    throw new InvalidGrant('the user name or password is incorrect');
  }
  const { user } = check;
  const roles = await rolesOfUser(ctx.db, user.id);
  const access = await issueAccessToken(ctx, client, { subject: user.id, userId: user.id, scopes, roles });
  const refreshToken = issuesRefreshToken(client, scopes)
    ? await storeRefreshToken(ctx.db, { client, userId: user.id, scopes })
    : undefined;
  return { ...access, scopes, refreshToken };
};
