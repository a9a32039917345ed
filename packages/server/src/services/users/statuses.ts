import type { UserStatus } from '@idsvc/shared';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userClaims, users } from '../../db/schema/index.js';
import { badRequest, notFound } from '../../http/api-error.js';
import type { EndedSession } from '../../queries/action-tokens.js';
import { endLiveSessionsOfUsers } from '../../queries/live-sessions.js';
import { audit } from '../audit.js';
import type { WriteContext } from '../write-context.js';

function byIdentity(claim: UserStatus['identityClaim']): SQL {
  switch (claim.type.toLowerCase()) {
    case 'id':
      return sql`${users.id}::text = lower(${claim.value})`;
    case 'username':
      return sql`lower(${users.userName}) = lower(${claim.value})`;
    case 'email':
      return sql`lower(${users.email}) = lower(${claim.value})`;
    default:
      return sql`exists (select 1 from ${userClaims} where ${userClaims.userId} = ${users.id} and ${userClaims.type} = ${claim.type} and lower(${userClaims.value}) = lower(${claim.value}))`;
  }
}

/**
 * Sets `active` of users named by identity claims, all or none; 404 when any names no user. The users made inactive
 * are signed out: the live sessions that ended are returned.
 */
export function setStatuses(
  db: Db,
  items: UserStatus[],
  by: WriteContext,
): Promise<{ items: UserStatus[]; ended: EndedSession[] }> {
  return db.transaction(async (tx) => {
    const targets: { id: string; active: boolean }[] = [];
    const missing: unknown[] = [];
    for (const [index, item] of items.entries()) {
      const found = await tx.select({ id: users.id }).from(users).where(byIdentity(item.identityClaim)).limit(2);
      if (found.length === 0)
        missing.push({ index, identityClaim: item.identityClaim, message: 'no user has this identity claim' });
      else if (found.length > 1)
        throw badRequest(`item ${index}: the identity claim names more than one user`, [{ index }]);
      else targets.push({ id: found[0].id, active: item.active });
    }
    if (missing.length) throw notFound('some identity claims name no user', missing);
    for (const active of [true, false]) {
      const ids = targets.filter((t) => t.active === active).map((t) => t.id);
      if (ids.length) await tx.update(users).set({ active, updatedAt: sql`now()` }).where(inArray(users.id, ids));
    }
    const ended = await endLiveSessionsOfUsers(
      tx,
      targets.filter((t) => !t.active).map((t) => t.id),
    );
    await audit(
      tx,
      targets.map((t) => ({
        ...by,
        operation: 'update' as const,
        entityType: 'user',
        entityKey: t.id,
        changes: { active: t.active },
      })),
    );
    return { items, ended };
  });
}
