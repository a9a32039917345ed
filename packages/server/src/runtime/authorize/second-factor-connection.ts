import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { authenticators, connections } from '../../db/schema/index.js';
import type { OAuthClient } from '../clients.js';

/** A TOTP second-factor connection with the user's sealed secret for it. */
export interface TotpFactor {
  pluginType: 'Totp';
  connectionId: string;
  name: string;
  secretEnc: string;
  lastTimeStep: number | null;
}

/** A second factor that sends the user a one-time code: by SMS or by e-mail. */
export interface CodeFactor {
  pluginType: 'SmsOtp' | 'EmailOtp';
  connectionId: string;
  name: string;
  configuration: Record<string, unknown>;
}

export type SecondFactor = TotpFactor | CodeFactor;

const factorPluginTypes = ['Totp', 'SmsOtp', 'EmailOtp'] as const;

/**
 * The second factor of a sign-in: of the connections named by the client's `dependencyConnectionNames`, then by
 * those of the username-and-password connection, the first that is an enabled `SecondFactor` connection and either
 * sends codes (`SmsOtp`, `EmailOtp`) or is a `Totp` connection the user has an authenticator enrolled for.
 */
export async function secondFactorOf(
  db: DbOrTx,
  client: OAuthClient,
  passwordConnectionName: string,
  userId: string,
): Promise<SecondFactor | undefined> {
  const [password] = await db
    .select({ names: connections.dependencyConnectionNames })
    .from(connections)
    .where(
      and(
        eq(connections.pluginType, 'UsernamePassword'),
        sql`lower(${connections.name}) = ${passwordConnectionName.toLowerCase()}`,
      ),
    )
    .limit(1);
  const names = [...client.dependencyConnectionNames, ...(password?.names ?? [])].map((n) => n.toLowerCase());
  if (names.length === 0) return undefined;
  const rows = await db
    .select({
      connectionId: connections.id,
      name: connections.name,
      pluginType: connections.pluginType,
      configuration: connections.configuration,
      secretEnc: authenticators.secretEnc,
      lastTimeStep: authenticators.lastTimeStep,
    })
    .from(connections)
    .leftJoin(authenticators, and(eq(authenticators.connectionId, connections.id), eq(authenticators.userId, userId)))
    .where(
      and(
        inArray(sql`lower(${connections.name})`, names),
        eq(connections.connectionType, 'SecondFactor'),
        inArray(connections.pluginType, [...factorPluginTypes]),
        eq(connections.enabled, true),
      ),
    );
  const [first] = rows
    .filter((row) => row.pluginType !== 'Totp' || row.secretEnc !== null)
    .sort((a, b) => names.indexOf(a.name.toLowerCase()) - names.indexOf(b.name.toLowerCase()));
  if (!first) return undefined;
  const { connectionId, name } = first;
  if (first.pluginType === 'SmsOtp' || first.pluginType === 'EmailOtp') {
    return { pluginType: first.pluginType, connectionId, name, configuration: first.configuration };
  }
  return { pluginType: 'Totp', connectionId, name, secretEnc: first.secretEnc ?? '', lastTimeStep: first.lastTimeStep };
}
