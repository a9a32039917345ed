import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { claimSets, groups, userClaims, userGroups, users } from '../db/schema/index.js';
import type { OAuthClient } from './clients.js';
import { runtimeDefaults } from './defaults.js';
import { type ClaimTransformer, noTransformation } from './transform-claims.js';

/** The standard claims each scope releases (OpenID Connect Core §5.4). */
export const scopeClaims: Readonly<Record<string, readonly string[]>> = {
  profile: [
    'name',
    'family_name',
    'given_name',
    'middle_name',
    'nickname',
    'preferred_username',
    'profile',
    'picture',
    'website',
    'gender',
    'birthdate',
    'zoneinfo',
    'locale',
    'updated_at',
  ],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
  address: ['address'],
};

const standardTypes = new Set(Object.values(scopeClaims).flat());

/** Protocol claims a user claim may never overwrite. */
const reserved = new Set([
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'nbf',
  'jti',
  'auth_time',
  'nonce',
  'acr',
  'amr',
  'azp',
  'sid',
]);

export type UserRow = typeof users.$inferSelect;

/** A user with their stored claims (type and value, in the order added) and group names. */
export interface UserWithClaims {
  user: UserRow;
  claims: { type: string; value: string }[];
  groups: string[];
}

export async function loadUser(db: DbOrTx, userId: string): Promise<UserWithClaims | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  const [claims, groupRows] = await Promise.all([
    db
      .select({ type: userClaims.type, value: userClaims.value })
      .from(userClaims)
      .where(eq(userClaims.userId, userId))
      .orderBy(userClaims.id),
    db
      .select({ name: groups.name })
      .from(userGroups)
      .innerJoin(groups, eq(groups.id, userGroups.groupId))
      .where(eq(userGroups.userId, userId)),
  ]);
  return { user, claims, groups: groupRows.map((g) => g.name) };
}

/** The `sub` of the user for the client: the NameID when the client asks for it (`useNameIdAsSub`), else the id. */
export function subjectFor(client: OAuthClient, who: UserWithClaims): string {
  if (!client.configuration.useNameIdAsSub) return who.user.id;
  for (const type of runtimeDefaults.nameIdClaimTypes) {
    const claim = who.claims.find((c) => c.type === type);
    if (claim) return claim.value;
  }
  return who.user.userName;
}

/** The user's value of one standard claim: a stored claim of that type, else the user's own field. */
function standardValue(who: UserWithClaims, type: string): unknown {
  const stored = who.claims.find((c) => c.type === type)?.value;
  const { user } = who;
  switch (type) {
    case 'name':
      return stored ?? user.displayName ?? undefined;
    case 'preferred_username':
      return stored ?? user.userName;
    case 'email':
      return stored ?? user.email ?? undefined;
    case 'phone_number':
      return stored ?? user.phoneNumber ?? undefined;
    case 'email_verified':
    case 'phone_number_verified':
      return stored === undefined ? undefined : stored.toLowerCase() === 'true';
    case 'updated_at':
      return stored !== undefined && /^\d+$/.test(stored)
        ? Number(stored)
        : Math.floor(user.updatedAt.getTime() / 1000);
    case 'address':
      return stored === undefined ? undefined : addressOf(stored);
    default:
      return stored;
  }
}

/** OpenID Connect's address claim is an object; a stored JSON object is used as is, other text as `formatted`. */
function addressOf(value: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // not JSON: a formatted address
  }
  return { formatted: value };
}

/** The claim types of the named claim sets (names compare case-insensitively). */
export async function claimTypesOfSets(db: DbOrTx, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await db
    .select({ claimTypes: claimSets.claimTypes })
    .from(claimSets)
    .where(
      inArray(
        sql`lower(${claimSets.name})`,
        names.map((n) => n.toLowerCase()),
      ),
    );
  return [...new Set(rows.flatMap((r) => r.claimTypes))];
}

/**
 * The claims released to the client about the user: the standard claims of the granted scopes, then every claim
 * of the types in the client's claim sets (several values become an array), then the client's claim
 * transformations. `sub` is always there.
 */
export async function releasedClaims(
  db: DbOrTx,
  client: OAuthClient,
  who: UserWithClaims,
  scopes: readonly string[],
  transform: ClaimTransformer = noTransformation,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const scope of scopes) {
    for (const type of scopeClaims[scope] ?? []) {
      const value = standardValue(who, type);
      if (value !== undefined && value !== '') out[type] = value;
    }
  }
  for (const type of await claimTypesOfSets(db, client.claimSets)) {
    if (reserved.has(type)) continue;
    if (type === 'groups') {
      if (who.groups.length > 0) out.groups = who.groups;
      continue;
    }
    const values = who.claims.filter((c) => c.type === type).map((c) => c.value);
    if (standardTypes.has(type)) {
      const standard = standardValue(who, type);
      if (standard !== undefined && standard !== '') out[type] = standard;
      continue;
    }
    if (values.length > 0) out[type] = values.length === 1 ? values[0] : values;
  }
  const transformed = await transform(client, who, out);
  const result: Record<string, unknown> = {};
  for (const [type, value] of Object.entries(transformed)) if (!reserved.has(type)) result[type] = value;
  result.sub = subjectFor(client, who);
  return result;
}
