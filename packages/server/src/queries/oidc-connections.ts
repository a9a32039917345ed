import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { connections } from '../db/schema/index.js';

/**
 * The ids of the enabled GenericOidcProvider authentication connections whose configured issuer is `issuer`
 * (trailing slashes aside), oldest id first.
 */
export async function oidcConnectionsOfIssuer(db: DbOrTx, issuer: string): Promise<string[]> {
  const rows = await db
    .select({ id: connections.id })
    .from(connections)
    .where(
      and(
        eq(connections.pluginType, 'GenericOidcProvider'),
        eq(connections.connectionType, 'Authentication'),
        eq(connections.enabled, true),
        sql`rtrim(${connections.configuration}->>'issuer', '/') = ${issuer.replace(/\/+$/, '')}`,
      ),
    )
    .orderBy(asc(connections.id));
  return rows.map((row) => row.id);
}
