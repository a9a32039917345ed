import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { connections } from '../../db/schema/index.js';
import { runtimePaths } from '../defaults.js';
import { usableCertificates } from './connection-certificates.js';
import { UpstreamError } from './provider.js';

/** An upstream WS-Federation security token service (a WsFederation authentication connection), ready to use. */
export interface WsFedTokenService {
  connectionId: string;
  name: string;
  /** The service's issuer identity: the Issuer its assertions must carry. */
  entityId: string;
  /** Its passive requestor endpoint, where the browser is sent with wa=wsignin1.0. */
  signOnUrl: string;
  /** Its sign-out address (wa=wsignout1.0), when it differs from the sign-on address. */
  signOutUrl?: string;
  /** PEM certificates whose keys may sign its assertions. */
  certificates: string[];
}

/** This service as a WS-Federation relying party: its realm (wtrealm, the assertions' audience) and reply address. */
export interface WsFedRelyingParty {
  realm: string;
  replyUrl: string;
}

export function wsfedRelyingParty(baseUrl: string): WsFedRelyingParty {
  return { realm: `${baseUrl}${runtimePaths.wsfedRealm}`, replyUrl: `${baseUrl}${runtimePaths.wsfedReply}` };
}

/**
 * The security token service of an enabled WsFederation authentication connection, with the certificates it names
 * (those past their end of validity left out), as a Saml20 connection's are read. Throws UpstreamError when it
 * cannot be used.
 */
export async function wsfedTokenService(ctx: Pick<AppContext, 'db'>, connectionId: string): Promise<WsFedTokenService> {
  const [row] = await ctx.db.select().from(connections).where(eq(connections.id, connectionId));
  if (row?.pluginType !== 'WsFederation' || row.connectionType !== 'Authentication' || !row.enabled) {
    throw new UpstreamError('server_error', 'the connection is not an enabled WsFederation authentication connection');
  }
  const config = row.configuration;
  const entityId = String(config.entityId ?? row.entityId ?? '');
  if (entityId === '') throw new UpstreamError('server_error', 'the connection has no entity id');
  if (typeof config.singleSignOnUrl !== 'string' || config.singleSignOnUrl === '') {
    throw new UpstreamError('server_error', 'the connection has no single sign-on address');
  }
  const usable = await usableCertificates(ctx.db, row.certificates);
  if (usable.length === 0) throw new UpstreamError('server_error', 'the connection has no valid signing certificate');
  return {
    connectionId: row.id,
    name: row.name,
    entityId,
    signOnUrl: config.singleSignOnUrl,
    ...(typeof config.singleLogoutUrl === 'string' && config.singleLogoutUrl !== ''
      ? { signOutUrl: config.singleLogoutUrl }
      : {}),
    certificates: usable,
  };
}
