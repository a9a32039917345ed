import type { RefreshToken } from '@idsvc/shared';
import { and, eq, gt, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { ListSource } from '../conventions/list.js';
import { isGuid } from '../conventions/segment.js';
import { sha256 } from '../crypto/digest.js';
import type { DbOrTx } from '../db/client.js';
import { refreshTokens } from '../db/schema/index.js';
import { pagedQueries } from './paged-queries.js';

/** What a listing shows of a refresh token: never the token nor its digest. */
const columns = {
  id: refreshTokens.id,
  userId: refreshTokens.userId,
  clientId: refreshTokens.clientId,
  scope: refreshTokens.scope,
  createdAt: refreshTokens.createdAt,
  expiresAt: refreshTokens.expiresAt,
  familyExpiresAt: refreshTokens.familyExpiresAt,
};

type Row = {
  id: string;
  userId: string | null;
  clientId: string;
  scope: string;
  createdAt: Date;
  expiresAt: Date;
  familyExpiresAt: Date;
};

export const toRefreshToken = (row: Row): RefreshToken => ({
  id: row.id,
  userId: row.userId ?? '',
  clientId: row.clientId,
  creationDate: row.createdAt.toISOString(),
  expirationDate: row.expiresAt.toISOString(),
  refreshTokenExpirationDate: row.familyExpiresAt.toISOString(),
  scope: row.scope,
});

/** The user's tokens that can still be used: neither revoked, nor rotated, nor expired. */
export const validTokensOf = (userId: string): SQL =>
  and(
    eq(refreshTokens.userId, userId),
    isNull(refreshTokens.revokedAt),
    isNull(refreshTokens.rotatedAt),
    gt(refreshTokens.expiresAt, sql`now()`),
  ) as SQL;

export function refreshTokenList(db: DbOrTx): ListSource<Row & { total: number }> {
  return {
    filter: { attributes: {} },
    sort: {
      creationdate: refreshTokens.createdAt,
      expirationdate: refreshTokens.expiresAt,
      refreshtokenexpirationdate: refreshTokens.familyExpiresAt,
    },
    tieBreaker: refreshTokens.id,
    ...pagedQueries<Row>((fields) => db.select(fields).from(refreshTokens).$dynamic(), columns),
  };
}

/**
 * Revokes the refresh token named by its value (found by digest) or by its id (GUID form) unless it was revoked
 * already; returns what was revoked.
 */
export async function revokeRefreshToken(
  db: DbOrTx,
  tokenOrId: string,
): Promise<Array<{ id: string; userId: string | null; clientId: string }>> {
  const byDigest = eq(refreshTokens.tokenHash, sha256(tokenOrId));
  const match = isGuid(tokenOrId) ? or(byDigest, eq(refreshTokens.id, tokenOrId.toLowerCase())) : byDigest;
  return db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(match, isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id, userId: refreshTokens.userId, clientId: refreshTokens.clientId });
}
