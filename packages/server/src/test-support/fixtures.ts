import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ROLE_CLAIM } from '../auth/roles.js';
import { randomSecret, sha256 } from '../crypto/digest.js';
import { hashPassword } from '../crypto/password.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db } from '../db/client.js';
import { connections, organizations, userClaims, users } from '../db/schema/index.js';

export interface TestUser {
  userName?: string;
  email?: string;
  password?: string;
  roles?: string[];
  active?: boolean;
  locked?: boolean;
  forceResetPassword?: boolean;
  passwordExpiresAt?: Date;
  /** Organization name (default Root, which the seed creates). */
  organization?: string;
}

/** Inserts a user (in organization Root unless told) with REST API role claims; returns its id and userName. */
export async function createTestUser(db: Db, user: TestUser = {}): Promise<{ id: string; userName: string }> {
  const userName = user.userName ?? `user-${randomUUID().slice(0, 8)}`;
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(sql`lower(${organizations.name}) = lower(${user.organization ?? 'Root'})`);
  if (!org) throw new Error(`organization ${user.organization ?? 'Root'} does not exist`);
  const [row] = await db
    .insert(users)
    .values({
      userName,
      email: user.email,
      organizationId: org.id,
      passwordHash: user.password === undefined ? null : await hashPassword(user.password),
      active: user.active ?? true,
      locked: user.locked ?? false,
      forceResetPassword: user.forceResetPassword ?? false,
      passwordExpiresAt: user.passwordExpiresAt,
    })
    .returning({ id: users.id });
  if (user.roles?.length) {
    await db.insert(userClaims).values(user.roles.map((value) => ({ userId: row.id, type: ROLE_CLAIM, value })));
  }
  return { id: row.id, userName };
}

export interface TestClient {
  clientId?: string;
  /** Defaults to a generated secret; `null` makes a public client. */
  clientSecret?: string | null;
  allowedGrantTypes?: string[];
  scopes?: string[];
  /** Any other configuration fields (restApiRole, signingAlgorithm, lifetimes…). */
  configuration?: Record<string, unknown>;
  enabled?: boolean;
}

/**
 * Inserts an OAuth20 protocol connection. HMAC clients (signingAlgorithm HS*) keep their secret sealed with `box`,
 * others as a SHA-256 digest. Returns the client id and secret.
 */
export async function createTestClient(
  db: Db,
  box: SecretBox,
  client: TestClient = {},
): Promise<{ clientId: string; clientSecret?: string }> {
  const clientId = client.clientId ?? `client-${randomUUID().slice(0, 8)}`;
  const clientSecret = client.clientSecret === null ? undefined : (client.clientSecret ?? randomSecret(32));
  const hmac = /^HS(256|384|512)$/.test(String(client.configuration?.signingAlgorithm ?? ''));
  await db.insert(connections).values({
    name: clientId,
    connectionType: 'Protocol',
    pluginType: 'OAuth20',
    enabled: client.enabled ?? true,
    clientId,
    clientSecretHash: clientSecret !== undefined && !hmac ? sha256(clientSecret) : null,
    clientSecretEnc: clientSecret !== undefined && hmac ? box.seal(clientSecret) : null,
    configuration: {
      clientId,
      publicClient: clientSecret === undefined,
      allowedGrantTypes: client.allowedGrantTypes ?? ['client_credentials'],
      redirectUris: [],
      ...client.configuration,
    },
    scopes: client.scopes ?? [],
  });
  return clientSecret === undefined ? { clientId } : { clientId, clientSecret };
}
