import type { Application } from '@idsvc/shared';
import { Listing, type ListRequest, runList } from '../conventions/list.js';
import type { Db } from '../db/client.js';
import { applicationList, isApplication, toApplication } from '../queries/applications.js';

/**
 * Applications, read-only: each protocol connection (OAuth 2.0 / OpenID Connect, SAML 2.0, WS-Federation) is the
 * application that signs its users in through it, listed under the connection's name. They are made and changed
 * as connections.
 */
export function applicationService(db: Db) {
  return {
    async list(request: ListRequest): Promise<Listing<Application>> {
      const { rows, total } = await runList(applicationList(db), request, isApplication);
      return new Listing(rows.map(toApplication), total, request);
    },
  };
}

export type ApplicationService = ReturnType<typeof applicationService>;
