import type { Consent } from '@idsvc/shared';
import { Listing, type ListRequest, runList } from '../conventions/list.js';
import type { Db } from '../db/client.js';
import { notFound } from '../http/api-error.js';
import * as q from '../queries/consents.js';
import { audit } from './audit.js';
import type { WriteContext } from './write-context.js';

const entityType = 'consent';

/** The consents users gave to protocol connections. */
export function consentService(db: Db) {
  return {
    /** The user's consents with the connections' names; 404 when the user does not exist. */
    async list(userId: string, request: ListRequest): Promise<Listing<Consent>> {
      if (!(await q.userExists(db, userId))) throw notFound(`user ${userId} does not exist`);
      const { rows, total } = await runList(q.consentList(db), request, q.consentsOf(userId));
      return new Listing(rows.map(q.toConsent), total, request);
    },

    /** Deletes the user's consent to the connection; 404 when either does not exist, success when there was none. */
    delete(userId: string, connectionName: string, by: WriteContext): Promise<void> {
      return db.transaction(async (tx) => {
        if (!(await q.userExists(tx, userId))) throw notFound(`user ${userId} does not exist`);
        const connection = await q.findConnection(tx, connectionName);
        if (!connection) throw notFound(`connection ${connectionName} does not exist`);
        if (!(await q.deleteConsent(tx, userId, connection.id))) return;
        await audit(tx, {
          ...by,
          operation: 'delete',
          entityType,
          entityKey: `${userId}/${connection.name}`,
          changes: { userId, connectionName: connection.name },
        });
      });
    },
  };
}

export type ConsentService = ReturnType<typeof consentService>;
