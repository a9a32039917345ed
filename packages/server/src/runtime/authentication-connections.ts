import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { connections } from '../db/schema/index.js';
import { USERNAME_PASSWORD_CONNECTION } from '../db/seed.js';
import type { OAuthClient } from './clients.js';
import { InvalidRequest } from './oauth-errors.js';

/** An authentication connection a client signs users in through. */
export interface AuthenticationConnection {
  id: string;
  name: string;
  pluginType: string;
  entityId: string | null;
  configuration: Record<string, unknown>;
}

/**
 * The enabled authentication connections of the client, in the order of its `dependencyConnectionNames`; the
 * built-in UsernamePassword connection when it names none (DESIGN 1.5).
 */
export async function authenticationConnectionsOf(
  db: DbOrTx,
  client: OAuthClient,
): Promise<AuthenticationConnection[]> {
  const names =
    client.dependencyConnectionNames.length > 0 ? client.dependencyConnectionNames : [USERNAME_PASSWORD_CONNECTION];
  const lower = names.map((n) => n.toLowerCase());
  const rows = await db
    .select({
      id: connections.id,
      name: connections.name,
      pluginType: connections.pluginType,
      entityId: connections.entityId,
      configuration: connections.configuration,
    })
    .from(connections)
    .where(
      and(
        inArray(sql`lower(${connections.name})`, lower),
        eq(connections.connectionType, 'Authentication'),
        eq(connections.enabled, true),
      ),
    );
  return rows.sort((a, b) => lower.indexOf(a.name.toLowerCase()) - lower.indexOf(b.name.toLowerCase()));
}

/**
 * The username-and-password connection in use: of several, the one with the higher index in the dependency list
 * (spec, runtime endpoints).
 */
export function passwordConnectionOf(list: readonly AuthenticationConnection[]): AuthenticationConnection | undefined {
  return list.filter((c) => c.pluginType === 'UsernamePassword').at(-1);
}

/**
 * The connection a `whr` value names (spec, whr parameter): `uuid:<connection id>`, `urn:<entity id or client id>`
 * or `name:<connection name>`. It must be one of the client's; anything else is an invalid request.
 */
export function chooseByWhr(list: readonly AuthenticationConnection[], whr: string): AuthenticationConnection {
  const match = /^(uuid|urn|name):(.+)$/s.exec(whr);
  if (!match) throw new InvalidRequest('whr must be uuid:<connection id>, urn:<entity id> or name:<connection name>');
  const [, form, value] = match;
  const found = list.find((c) => {
    if (form === 'uuid') return c.id.toLowerCase() === value.toLowerCase();
    if (form === 'name') return c.name.toLowerCase() === value.toLowerCase();
    // An entity id that is itself a URN may be given with or without the extra `urn:`.
    const ids = [c.entityId, c.configuration.clientId, c.configuration.entityId];
    return ids.some((id) => typeof id === 'string' && (id === value || id === whr));
  });
  if (!found) throw new InvalidRequest('whr names no authentication connection of this client');
  return found;
}
