import { inArray } from 'drizzle-orm';
import { pemOf } from '../../crypto/pem.js';
import type { DbOrTx } from '../../db/client.js';
import { certificates } from '../../db/schema/index.js';

/**
 * The certificates a federation connection names by thumbprint (in any case, with or without separators), as PEM,
 * those past their end of validity left out: the keys that may sign what its provider sends.
 */
export async function usableCertificates(db: DbOrTx, thumbprints: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(thumbprints.map((t) => t.replace(/[\s:]/g, '').toUpperCase()))];
  if (wanted.length === 0) return [];
  const now = Date.now();
  const stored = await db
    .select({ der: certificates.der, validTo: certificates.validTo })
    .from(certificates)
    .where(inArray(certificates.thumbprint, wanted));
  return stored.filter((c) => c.validTo.getTime() > now).map((c) => pemOf('CERTIFICATE', c.der));
}
