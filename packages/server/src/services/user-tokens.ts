import type { RefreshToken } from '@idsvc/shared';
import { Listing, type ListRequest, runList } from '../conventions/list.js';
import type { Db } from '../db/client.js';
import { notFound } from '../http/api-error.js';
import { userExists } from '../queries/consents.js';
import * as q from '../queries/refresh-tokens.js';
import { audit } from './audit.js';
import type { WriteContext } from './write-context.js';

const entityType = 'refreshToken';

/** The refresh tokens of users, as the admin API shows and revokes them. */
export function userTokenService(db: Db) {
  return {
    /** The user's valid refresh tokens; 404 when the user does not exist. */
    async list(userId: string, request: ListRequest): Promise<Listing<RefreshToken>> {
      if (!(await userExists(db, userId))) throw notFound(`user ${userId} does not exist`);
      const { rows, total } = await runList(q.refreshTokenList(db), request, q.validTokensOf(userId));
      return new Listing(rows.map(q.toRefreshToken), total, request);
    },

    /** Revokes a refresh token given as its value or its id; succeeds also when none matches. */
    revoke(tokenOrId: string, by: WriteContext): Promise<void> {
      return db.transaction(async (tx) => {
        const revoked = await q.revokeRefreshToken(tx, tokenOrId.trim());
        await audit(
          tx,
          revoked.map((row) => ({
            ...by,
            operation: 'delete' as const,
            entityType,
            entityKey: row.id,
            changes: { userId: row.userId, clientId: row.clientId },
          })),
        );
      });
    },
  };
}

export type UserTokenService = ReturnType<typeof userTokenService>;
