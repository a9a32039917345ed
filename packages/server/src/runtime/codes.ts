import { and, eq, isNull, sql } from 'drizzle-orm';
import { randomSecret, sha256 } from '../crypto/digest.js';
import type { DbOrTx } from '../db/client.js';
import { authorizationCodes, refreshTokens } from '../db/schema/index.js';
import { runtimeDefaults } from './defaults.js';

export type CodeRow = typeof authorizationCodes.$inferSelect;

export interface NewCode {
  clientId: string;
  userId: string;
  sessionId: string;
  redirectUri: string;
  scopes: readonly string[];
  nonce?: string | undefined;
  codeChallenge?: string | undefined;
  authTime: Date;
  acr: string | null;
}

/** Stores a new authorization code (only its SHA-256 digest) and returns it. */
export async function storeCode(db: DbOrTx, input: NewCode): Promise<string> {
  const code = randomSecret(32);
  await db.insert(authorizationCodes).values({
    codeHash: sha256(code),
    clientId: input.clientId,
    userId: input.userId,
    sessionId: input.sessionId,
    redirectUri: input.redirectUri,
    scope: input.scopes.join(' '),
    nonce: input.nonce ?? null,
    codeChallenge: input.codeChallenge ?? null,
    codeChallengeMethod: input.codeChallenge === undefined ? null : 'S256',
    authTime: input.authTime,
    acr: input.acr,
    expiresAt: new Date(Date.now() + runtimeDefaults.authorizationCodeLifetime * 1000),
  });
  return code;
}

/**
 * Spends the code: `spent` is the row when this call marked it used, `reused` when it had been used before (or is
 * used by a concurrent request), nothing when the code is unknown.
 */
export async function spendCode(db: DbOrTx, code: string): Promise<{ spent?: CodeRow; reused?: CodeRow }> {
  const codeHash = sha256(code);
  const [spent] = await db
    .update(authorizationCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(authorizationCodes.codeHash, codeHash), isNull(authorizationCodes.usedAt)))
    .returning();
  if (spent) return { spent };
  const [reused] = await db.select().from(authorizationCodes).where(eq(authorizationCodes.codeHash, codeHash));
  return reused ? { reused } : {};
}

/** The `jti` of the access token a code was exchanged for, so that a reuse of the code can revoke it. */
export function accessTokenIdOfCode(codeHash: string): string {
  return `code.${codeHash.slice(0, 43)}`;
}

/** Revokes the refresh token families that an authorization code started (RFC 6749 §4.1.2: reuse of a code). */
export async function revokeFamiliesOfCode(db: DbOrTx, codeHash: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        isNull(refreshTokens.revokedAt),
        sql`${refreshTokens.familyId} in (select family_id from refresh_tokens where claims->>'code' = ${codeHash})`,
      ),
    );
}
