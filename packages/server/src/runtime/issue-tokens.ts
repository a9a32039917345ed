import { eq } from 'drizzle-orm';
import { rolesOfUser } from '../auth/roles.js';
import type { AppContext } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { issueAccessToken } from './access-token.js';
import { loadUser, releasedClaims, subjectFor, type UserRow } from './claims.js';
import type { OAuthClient } from './clients.js';
import type { TokenResult } from './grants/grant.js';
import { issueIdToken } from './id-token.js';
import { InvalidGrant } from './oauth-errors.js';
import { storeRefreshToken } from './refresh-tokens.js';
import { issuesRefreshToken } from './scopes.js';
import { claimTransformerOf } from './transform-claims.js';

/** A grant of access for a user, as the authorization code, device code and password grants hand it over. */
export interface UserGrant {
  client: OAuthClient;
  userId: string;
  scopes: string[];
  authTime: Date;
  sessionId?: string | null;
  acr?: string | null;
  amr?: readonly string[];
  nonce?: string | null;
  /** The access token's `jti` (to revoke it by what it came from). */
  accessTokenId?: string;
  /** Kept with the refresh token family. */
  refreshClaims?: Record<string, unknown>;
  /** The user's row when the caller has just read it (the password grant). */
  user?: UserRow;
}

async function findUserRow(db: DbOrTx, userId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row;
}

/**
 * The token response of a user grant: an access token; an ID token when `openid` was granted; a refresh token
 * when `offline_access` was granted and the client may refresh. InvalidGrant when the user may no longer sign in.
 * The user's claims are read only when something needs them (an ID token, or the NameID as `sub`).
 */
export async function issueUserTokens(ctx: AppContext, grant: UserGrant): Promise<TokenResult> {
  const { client, scopes } = grant;
  const needsClaims = scopes.includes('openid') || client.configuration.useNameIdAsSub;
  const who = needsClaims ? await loadUser(ctx.db, grant.userId) : undefined;
  const user = who?.user ?? grant.user ?? (await findUserRow(ctx.db, grant.userId));
  if (!user?.active || user.locked) throw new InvalidGrant('the user may not sign in');
  const subject = who ? subjectFor(client, who) : grant.userId;
  const roles = await rolesOfUser(ctx.db, grant.userId);
  const access = await issueAccessToken(ctx, client, {
    subject,
    userId: grant.userId,
    scopes,
    roles,
    ...(grant.accessTokenId === undefined ? {} : { jti: grant.accessTokenId }),
    ...(grant.acr ? { acr: grant.acr } : {}),
  });
  const result: TokenResult = { ...access, scopes };
  if (who && scopes.includes('openid')) {
    const claims = await releasedClaims(ctx.db, client, who, scopes, claimTransformerOf(ctx));
    result.idToken = await issueIdToken(ctx, client, {
      claims,
      authTime: grant.authTime,
      nonce: grant.nonce ?? undefined,
      acr: grant.acr,
      amr: grant.amr,
      sessionId: grant.sessionId,
      accessToken: access.accessToken,
    });
  }
  if (issuesRefreshToken(client, scopes)) {
    result.refreshToken = await storeRefreshToken(ctx.db, {
      client,
      userId: grant.userId,
      scopes,
      sessionId: grant.sessionId ?? null,
      claims: { authTime: grant.authTime.toISOString(), acr: grant.acr ?? null, ...grant.refreshClaims },
    });
  }
  return result;
}
