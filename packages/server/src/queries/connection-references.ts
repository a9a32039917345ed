import { inArray } from 'drizzle-orm';
import type { ParsedCertificate } from '../certificates/parse.js';
import type { DbOrTx } from '../db/client.js';
import { certificates, claimSets, connections, transformations } from '../db/schema/index.js';
import { nameIn } from './sql.js';

/** The objects a connection names: other connections, claim sets, claim transformations, certificates. */

export type CertificateRow = typeof certificates.$inferSelect;

const byLowerName = (rows: { name: string }[]) => new Map(rows.map((r) => [r.name.toLowerCase(), r.name]));

/** Lower-case name → stored name, of the given connection names that exist. */
export async function connectionNames(db: DbOrTx, names: readonly string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  return byLowerName(
    await db.select({ name: connections.name }).from(connections).where(nameIn(connections.name, names)),
  );
}

/** Lower-case name → stored name, of the given claim set names that exist. */
export async function claimSetNames(db: DbOrTx, names: readonly string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  return byLowerName(await db.select({ name: claimSets.name }).from(claimSets).where(nameIn(claimSets.name, names)));
}

/** Lower-case name → stored name, of the given claim transformation names that exist. */
export async function transformationNames(db: DbOrTx, names: readonly string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  return byLowerName(
    await db.select({ name: transformations.name }).from(transformations).where(nameIn(transformations.name, names)),
  );
}

/** The certificates of the database store with these (upper-case) thumbprints. */
export async function findCertificates(db: DbOrTx, thumbprints: readonly string[]): Promise<CertificateRow[]> {
  if (thumbprints.length === 0) return [];
  return db
    .select()
    .from(certificates)
    .where(inArray(certificates.thumbprint, [...thumbprints]));
}

/** Stores certificates in the database store; those whose thumbprint is there already are left as they are. */
export async function insertCertificates(db: DbOrTx, list: readonly ParsedCertificate[]): Promise<void> {
  if (list.length === 0) return;
  await db
    .insert(certificates)
    .values(
      list.map((c) => ({
        thumbprint: c.thumbprint,
        der: Buffer.from(c.der),
        subject: c.subject,
        issuer: c.issuer,
        serialNumber: c.serialNumber,
        validFrom: c.validFrom,
        validTo: c.validTo,
      })),
    )
    .onConflictDoNothing({ target: certificates.thumbprint });
}
