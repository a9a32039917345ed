import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { randomSecret, sha256 } from '../crypto/digest.js';
import type { DbOrTx } from '../db/client.js';
import { refreshTokens } from '../db/schema/index.js';
import type { OAuthClient } from './clients.js';

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

export interface NewRefreshToken {
  client: OAuthClient;
  userId: string | null;
  scopes: readonly string[];
  /** Continue a family (rotation); absent starts a new one. */
  family?: { id: string; expiresAt: Date };
  /** The browser session the family started in. */
  sessionId?: string | null;
  /** What the family came from (the authorization code's digest, the sign-in's time and class). */
  claims?: Record<string, unknown> | null;
}

/**
 * Stores a new refresh token (only its SHA-256 digest) and returns its value. It expires after the client's
 * `refreshTokenLifetime`, and never after its family's end (`refreshTokenAbsoluteLifetime` after the first).
 */
export async function storeRefreshToken(db: DbOrTx, input: NewRefreshToken): Promise<string> {
  const now = Date.now();
  const { refreshTokenLifetime, refreshTokenAbsoluteLifetime } = input.client.configuration;
  const family = input.family ?? {
    id: randomUUID(),
    expiresAt: new Date(now + Math.max(refreshTokenLifetime, refreshTokenAbsoluteLifetime) * 1000),
  };
  const expiresAt = new Date(Math.min(now + refreshTokenLifetime * 1000, family.expiresAt.getTime()));
  const token = randomSecret(32);
  await db.insert(refreshTokens).values({
    tokenHash: sha256(token),
    familyId: family.id,
    userId: input.userId,
    clientId: input.client.clientId,
    scope: input.scopes.join(' '),
    expiresAt,
    familyExpiresAt: family.expiresAt,
    sessionId: input.sessionId ?? null,
    claims: input.claims ?? null,
  });
  return token;
}

export async function findRefreshToken(db: DbOrTx, token: string): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(token)));
  return row;
}

/** Marks the token rotated; false when it was rotated or revoked meanwhile (a concurrent reuse). */
export async function markRotated(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ rotatedAt: new Date() })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

/** Revokes every token of a family (reuse of a rotated token, logout, revocation). */
export async function revokeFamily(db: DbOrTx, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}
