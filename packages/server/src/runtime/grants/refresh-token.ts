import { eq } from 'drizzle-orm';
import { rolesOfUser } from '../../auth/roles.js';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { issueAccessToken } from '../access-token.js';
import { loadUser, subjectFor } from '../claims.js';
import type { OAuthClient } from '../clients.js';
import { InvalidGrant, InvalidScope } from '../oauth-errors.js';
import {
  findRefreshToken,
  markRotated,
  type RefreshTokenRow,
  revokeFamily,
  storeRefreshToken,
} from '../refresh-tokens.js';
import { parseScope } from '../scopes.js';
import { type Grant, requiredParam, type TokenResult } from './grant.js';
import { originalSignIn, refreshedIdToken } from './refreshed-id-token.js';

/**
 * RFC 6749 §6 with rotation: the presented token is spent and a new one of the same family returned (keeping the
 * session and sign-in it came from). Presenting a spent token again revokes the whole family. When the scopes
 * include `openid`, a new ID token about the original sign-in comes along (OpenID Connect Core §12.2).
 */
export const refreshTokenGrant: Grant = async (ctx, client, form) => {
  const presented = requiredParam(form, 'refresh_token');
  const row = await usableToken(ctx.db, client, presented);
  const scopes = narrowedScopes(row, form.get('scope'));
  const roles = row.userId ? await rolesOfActiveUser(ctx.db, row.userId) : [];
  const refreshToken = await ctx.db.transaction(async (tx) => {
    if (!(await markRotated(tx, row.id))) return undefined;
    return storeRefreshToken(tx, {
      client,
      userId: row.userId,
      scopes: parseScope(row.scope),
      family: { id: row.familyId, expiresAt: row.familyExpiresAt },
      sessionId: row.sessionId,
      claims: row.claims,
    });
  });
  if (refreshToken === undefined) {
    await revokeFamily(ctx.db, row.familyId);
    throw new InvalidGrant('the refresh token was already used');
  }
  const { userId } = row;
  const signIn = userId && scopes.includes('openid') ? await originalSignIn(ctx.db, row) : undefined;
  const who = userId && (signIn || client.configuration.useNameIdAsSub) ? await loadUser(ctx.db, userId) : undefined;
  const subject = who ? subjectFor(client, who) : (userId ?? client.clientId);
  const access = await issueAccessToken(ctx, client, { subject, userId: userId ?? undefined, scopes, roles });
  const result: TokenResult = { ...access, scopes, refreshToken };
  if (who && signIn) {
    result.idToken = await refreshedIdToken(ctx, client, { who, scopes, signIn, accessToken: access.accessToken });
  }
  return result;
};

/** The stored token, when it belongs to the client and is neither spent, revoked nor expired. */
async function usableToken(db: DbOrTx, client: OAuthClient, presented: string): Promise<RefreshTokenRow> {
  const row = await findRefreshToken(db, presented);
  if (!row || row.clientId !== client.clientId) throw new InvalidGrant('unknown refresh token');
  if (row.revokedAt) throw new InvalidGrant('the refresh token was revoked');
  if (row.rotatedAt) {
    await revokeFamily(db, row.familyId);
    throw new InvalidGrant('the refresh token was already used');
  }
  const now = Date.now();
  if (row.expiresAt.getTime() <= now || row.familyExpiresAt.getTime() <= now) {
    throw new InvalidGrant('the refresh token has expired');
  }
  return row;
}

/** RFC 6749 §6: a refresh may ask for fewer scopes than were granted, never more. */
function narrowedScopes(row: RefreshTokenRow, requested: string | null): string[] {
  const granted = parseScope(row.scope);
  const asked = parseScope(requested);
  if (asked.length === 0) return granted;
  const extra = asked.filter((s) => !granted.includes(s));
  if (extra.length > 0) throw new InvalidScope(`not granted originally: ${extra.join(' ')}`);
  return asked;
}

/** The user's current roles; InvalidGrant when the user is gone, inactive or locked. */
async function rolesOfActiveUser(db: DbOrTx, userId: string): Promise<string[]> {
  const [user] = await db
    .select({ active: users.active, locked: users.locked })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.active || user.locked) throw new InvalidGrant('the user may not sign in');
  return rolesOfUser(db, userId);
}
