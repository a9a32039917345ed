import { customContentNames } from '@idsvc/shared';
import { sql } from 'drizzle-orm';
import { ROLE_CLAIM } from '../auth/roles.js';
import type { Config } from '../config.js';
import { randomSecret } from '../crypto/digest.js';
import { hashPassword } from '../crypto/password.js';
import type { Logger } from '../http/logger.js';
import { seededEmailTemplates, seededSmsTemplates } from '../messaging/default-templates.js';
import type { Db, Tx } from './client.js';
import { SCHEMA_LOCK } from './migrate.js';
import {
  claimDefinitions,
  connections,
  customContents,
  emailTemplates,
  organizations,
  smsTemplates,
  userClaims,
  users,
} from './schema/index.js';

/** Advisory lock id that serialises seeding across instances sharing one database. */
export const SEED_LOCK = SCHEMA_LOCK + 1;

export const ROOT_ORGANIZATION = 'Root';
export const USERNAME_PASSWORD_CONNECTION = 'UsernamePassword';
export const CLI_CLIENT_ID = 'idsvc-cli';

/** The standard OpenID Connect claims kept per user (`sub` is the user's id, not a stored claim). */
const oidcClaims: ReadonlyArray<[claimType: string, variableName: string]> = [
  ['name', 'name'],
  ['given_name', 'givenName'],
  ['family_name', 'familyName'],
  ['middle_name', 'middleName'],
  ['nickname', 'nickname'],
  ['preferred_username', 'preferredUsername'],
  ['profile', 'profile'],
  ['picture', 'picture'],
  ['website', 'website'],
  ['email', 'email'],
  ['email_verified', 'emailVerified'],
  ['gender', 'gender'],
  ['birthdate', 'birthdate'],
  ['zoneinfo', 'zoneinfo'],
  ['locale', 'locale'],
  ['phone_number', 'phoneNumber'],
  ['phone_number_verified', 'phoneNumberVerified'],
  ['address', 'address'],
  ['updated_at', 'updatedAt'],
];

const cliClientConfiguration = {
  clientId: CLI_CLIENT_ID,
  publicClient: true,
  allowedGrantTypes: ['password', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
  redirectUris: [],
  accessTokenLifetime: 3600,
  refreshTokenLifetime: 2_592_000,
};

export interface SeedContext {
  db: Db;
  config: Config;
  logger: Logger;
}

/**
 * Creates, in one transaction, whatever of the built-in objects does not exist yet: organization Root, the
 * UsernamePassword connection, the role and OpenID Connect claim definitions, the `idsvc-cli` client, the (empty)
 * custom contents of the runtime pages and the bootstrap administrator. Returns the administrator's password when
 * it was generated, to be shown once.
 */
export async function seed(ctx: SeedContext): Promise<{ generatedAdminPassword?: string }> {
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const rootId = await seedRootOrganization(tx);
    await seedUsernamePasswordConnection(tx);
    await seedClaimDefinitions(tx);
    await seedCliClient(tx);
    await seedMessageTemplates(tx);
    await seedCustomContents(tx);
    const generatedAdminPassword = await seedAdministrator(tx, ctx, rootId);
    return generatedAdminPassword === undefined ? {} : { generatedAdminPassword };
  });
}

async function seedRootOrganization(tx: Tx): Promise<string> {
  await tx
    .insert(organizations)
    .values({ name: ROOT_ORGANIZATION, displayName: ROOT_ORGANIZATION })
    .onConflictDoNothing();
  const [root] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(sql`lower(${organizations.name}) = lower(${ROOT_ORGANIZATION})`);
  return root.id;
}

async function seedUsernamePasswordConnection(tx: Tx): Promise<void> {
  await tx
    .insert(connections)
    .values({
      name: USERNAME_PASSWORD_CONNECTION,
      connectionType: 'Authentication',
      pluginType: 'UsernamePassword',
      configuration: { maximumFailedAttempts: 10 },
    })
    .onConflictDoNothing();
}

async function seedClaimDefinitions(tx: Tx): Promise<void> {
  await tx
    .insert(claimDefinitions)
    .values([
      {
        claimType: ROLE_CLAIM,
        kind: 'FreeClaimDefinition',
        variableName: 'restApiRole',
        friendlyName: 'REST API role',
      },
      ...oidcClaims.map(([claimType, variableName]) => ({
        claimType,
        kind: 'FreeClaimDefinition',
        variableName,
        countSpecification: 'Single',
      })),
    ])
    .onConflictDoNothing();
}

async function seedCliClient(tx: Tx): Promise<void> {
  await tx
    .insert(connections)
    .values({
      name: CLI_CLIENT_ID,
      connectionType: 'Protocol',
      pluginType: 'OAuth20',
      clientId: CLI_CLIENT_ID,
      configuration: cliClientConfiguration,
      scopes: ['identify*scim', 'offline_access', 'openid', 'profile', 'email'],
    })
    .onConflictDoNothing();
}

/** The runtime pages' custom contents, empty (the built-in text applies) until changed with PUT. */
async function seedCustomContents(tx: Tx): Promise<void> {
  await tx
    .insert(customContents)
    .values(customContentNames.map((name) => ({ name, data: { content: '', languageCode: null } })))
    .onConflictDoNothing();
}

/** The ResetPassword and Offboard e-mail templates and the DefaultSMSOTPCodeTemplate SMS template. */
async function seedMessageTemplates(tx: Tx): Promise<void> {
  await tx
    .insert(emailTemplates)
    .values([...seededEmailTemplates])
    .onConflictDoNothing();
  await tx
    .insert(smsTemplates)
    .values([...seededSmsTemplates])
    .onConflictDoNothing();
}

/** Creates the administrator when no user has its userName; returns the password when it was generated. */
async function seedAdministrator(tx: Tx, ctx: SeedContext, rootId: string): Promise<string | undefined> {
  const userName = ctx.config.adminUserName;
  const [existing] = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.userName}) = lower(${userName})`);
  if (existing) return undefined;
  const generated = ctx.config.adminPassword === undefined ? randomSecret(18) : undefined;
  const passwordHash = await hashPassword(ctx.config.adminPassword ?? generated!);
  const [admin] = await tx
    .insert(users)
    .values({ userName, organizationId: rootId, passwordHash, passwordChangedAt: new Date() })
    .returning({ id: users.id });
  await tx.insert(userClaims).values({ userId: admin.id, type: ROLE_CLAIM, value: 'Administrator' });
  ctx.logger.info('created the bootstrap administrator', { userName });
  return generated;
}
