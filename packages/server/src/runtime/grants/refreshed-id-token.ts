import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { refreshTokens, sessions } from '../../db/schema/index.js';
import { releasedClaims, type UserWithClaims } from '../claims.js';
import type { OAuthClient } from '../clients.js';
import { issueIdToken } from '../id-token.js';
import type { RefreshTokenRow } from '../refresh-tokens.js';
import { claimTransformerOf } from '../transform-claims.js';

/** How the person signed in when the refresh token family started: what a refreshed ID token repeats. */
export interface OriginalSignIn {
  authTime: Date;
  acr: string | null;
  amr: string[];
  /** The browser session the family started in (`sid`). */
  sessionId: string | null;
}

/**
 * The sign-in a refresh token family came from: its time and class as kept with the token (`claims`), and `amr`
 * from the browser session the family started in (grants without one, such as the password grant, have none).
 * A token that does not hold them itself takes them from the first token of its family that does. Undefined when
 * no token of the family knows the sign-in's time.
 */
export async function originalSignIn(db: DbOrTx, row: RefreshTokenRow): Promise<OriginalSignIn | undefined> {
  const kept = authTimeOf(row.claims) ? row : await firstWithClaims(db, row.familyId);
  const authTime = authTimeOf(kept?.claims);
  if (!kept || !authTime) return undefined;
  const sessionId = row.sessionId ?? kept.sessionId;
  const acr = kept.claims?.acr;
  return {
    authTime,
    acr: typeof acr === 'string' && acr !== '' ? acr : null,
    amr: sessionId ? await amrOfSession(db, sessionId) : [],
    sessionId,
  };
}

/**
 * OpenID Connect Core §12.2: the ID token of a refresh response has the `sub`, `aud`, `azp`, `auth_time` and `acr`
 * of the original one, a new `iat` and `exp`, and no `nonce`. The other claims are the user's current ones.
 */
export async function refreshedIdToken(
  ctx: AppContext,
  client: OAuthClient,
  input: { who: UserWithClaims; scopes: readonly string[]; signIn: OriginalSignIn; accessToken: string },
): Promise<string> {
  const { who, scopes, signIn, accessToken } = input;
  const claims = await releasedClaims(ctx.db, client, who, scopes, claimTransformerOf(ctx));
  return issueIdToken(ctx, client, {
    claims,
    authTime: signIn.authTime,
    acr: signIn.acr,
    amr: signIn.amr,
    sessionId: signIn.sessionId,
    accessToken,
  });
}

function authTimeOf(claims: Record<string, unknown> | null | undefined): Date | undefined {
  const value = claims?.authTime;
  if (typeof value !== 'string') return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time;
}

async function firstWithClaims(db: DbOrTx, familyId: string): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, familyId), isNotNull(refreshTokens.claims)))
    .orderBy(asc(refreshTokens.createdAt))
    .limit(1);
  return row;
}

async function amrOfSession(db: DbOrTx, sessionId: string): Promise<string[]> {
  const [row] = await db.select({ amr: sessions.amr }).from(sessions).where(eq(sessions.id, sessionId));
  return row?.amr ?? [];
}
