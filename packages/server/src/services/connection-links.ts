import type { Certificate, Connection, ConnectionCertificatesInput } from '@idsvc/shared';
import { certificatePluginTypes } from '../connections/config-schemas.js';
import type { Db, DbOrTx } from '../db/client.js';
import { badRequest, notFound } from '../http/api-error.js';
import * as refs from '../queries/connection-references.js';
import * as q from '../queries/connections.js';
import { audit } from './audit.js';
import { entityType, existingThumbprints, mustFindConnection } from './connection-input.js';
import type { WriteContext } from './write-context.js';

const toCertificate = (row: refs.CertificateRow): Certificate => ({
  thumbprint: row.thumbprint,
  subject: row.subject,
  issuer: row.issuer,
  serialNumber: row.serialNumber,
  validFrom: row.validFrom.toISOString(),
  validTo: row.validTo.toISOString(),
  isInUse: true,
  storeName: 'DatabaseStore',
});

function nonBlank(names: readonly string[], field: string): string[] {
  if (names.length === 0 || names.some((n) => n.trim() === '')) {
    throw badRequest(`${field} must name at least one transformation and no blank names`, [{ field }]);
  }
  return [...new Set(names.map((n) => n.trim()))];
}

/** The certificates and claim transformations applied to a connection. */
export function connectionLinks(db: Db) {
  /** Transformations that must exist, in their stored spelling; 404 naming the missing ones. */
  async function storedTransformations(tx: DbOrTx, names: string[]) {
    const found = await refs.transformationNames(tx, names);
    const missing = names.filter((n) => !found.has(n.toLowerCase()));
    if (missing.length > 0) {
      throw notFound(
        `claim transformation ${missing.join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist`,
        missing.map((name) => ({ claimTransformationName: name })),
      );
    }
    return names.map((n) => found.get(n.toLowerCase())!);
  }

  /** Adds (or removes) claim transformations; 400 blank names, 404 missing connection or transformation. */
  async function changeTransformations(
    mode: 'add' | 'remove',
    connectionName: string,
    names: string[],
    by: WriteContext,
  ): Promise<Connection> {
    const wanted = nonBlank(names, 'claimTransformationName');
    return db.transaction(async (tx) => {
      const before = await mustFindConnection(tx, connectionName);
      const stored = await storedTransformations(tx, wanted);
      const lower = new Set(stored.map((n) => n.toLowerCase()));
      const kept = before.claimTransformations.filter((n) => !lower.has(n.toLowerCase()));
      const claimTransformations = mode === 'add' ? [...kept, ...stored] : kept;
      const row = await q.updateConnection(tx, before.id, { claimTransformations });
      await audit(tx, {
        ...by,
        operation: 'update',
        entityType,
        entityKey: row.name,
        changes: { [mode === 'add' ? 'addedClaimTransformations' : 'removedClaimTransformations']: stored },
      });
      return q.toConnection(row);
    });
  }

  return {
    /**
     * Replaces the certificates applied to a connection that holds certificates (SAML 2.0, WS-Federation, generic
     * OpenID Connect provider; 400 for others); 404 for a missing connection or certificate. Signing certificates
     * of the configuration that are no longer applied are dropped from it.
     */
    putCertificates(input: ConnectionCertificatesInput, by: WriteContext): Promise<void> {
      return db.transaction(async (tx) => {
        const before = await mustFindConnection(tx, input.connectionName);
        if (!certificatePluginTypes.includes(before.pluginType)) {
          throw badRequest(
            `a ${before.pluginType} connection holds no certificates; only ${certificatePluginTypes.join(', ')} connections do`,
          );
        }
        const certificates = await existingThumbprints(tx, input.certificates, 'certificates');
        const signing = before.configuration.signingCertificates;
        const configuration = Array.isArray(signing)
          ? { ...before.configuration, signingCertificates: signing.filter((t) => certificates.includes(t)) }
          : before.configuration;
        await q.updateConnection(tx, before.id, { certificates, configuration });
        await audit(tx, { ...by, operation: 'update', entityType, entityKey: before.name, changes: { certificates } });
      });
    },

    /** The certificates applied to a connection, from the database store; 404 when the connection is missing. */
    async getCertificates(connectionName: string): Promise<Certificate[]> {
      const connection = await mustFindConnection(db, connectionName);
      const rows = await refs.findCertificates(db, connection.certificates);
      const byThumbprint = new Map(rows.map((r) => [r.thumbprint, r]));
      return connection.certificates.flatMap((t) => {
        const row = byThumbprint.get(t);
        return row ? [toCertificate(row)] : [];
      });
    },

    addTransformations: (connectionName: string, names: string[], by: WriteContext): Promise<Connection> =>
      changeTransformations('add', connectionName, names, by),

    removeTransformations: (connectionName: string, names: string[], by: WriteContext): Promise<Connection> =>
      changeTransformations('remove', connectionName, names, by),
  };
}
