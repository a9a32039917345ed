import type { DbOrTx } from '../db/client.js';
import { usedSamlAssertions } from '../db/schema/index.js';

/** An assertion accepted from a Saml20 connection, and until when it could be accepted again. */
export interface UsedAssertion {
  connectionId: string;
  assertionId: string;
  expiresAt: Date;
}

/**
 * Records the assertion as used unless it was recorded already; whether it was recorded now (of concurrent uses of
 * one assertion, one wins).
 */
export async function recordUsedAssertion(db: DbOrTx, used: UsedAssertion): Promise<boolean> {
  const recorded = await db
    .insert(usedSamlAssertions)
    .values(used)
    .onConflictDoNothing({ target: [usedSamlAssertions.connectionId, usedSamlAssertions.assertionId] })
    .returning({ assertionId: usedSamlAssertions.assertionId });
  return recorded.length === 1;
}
