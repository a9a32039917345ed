import type { Role } from '@idsvc/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { preparedQuery } from '../db/prepared.js';
import { userClaims } from '../db/schema/index.js';

/** The claim that carries REST API roles, in access tokens and as a user claim type. */
export const ROLE_CLAIM = 'urn:identify:rest-api:role';
/** The claim that names the user behind an access token. */
export const USER_ID_CLAIM = 'urn:internal:userid';

/** Every REST API role, weakest first: a role grants what the roles before it grant. */
export const knownRoles: readonly Role[] = ['User', 'Observer', 'Administrator'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (knownRoles as readonly string[]).includes(value);
}

/** The known roles in a claim value that may be one string or an array; anything else is dropped. */
export function parseRoles(value: unknown): Role[] {
  const values = Array.isArray(value) ? value : [value];
  return [...new Set(values.filter(isRole))];
}

/** The value a token carries: one string for one role, an array for several, nothing for none. */
export function roleClaimValue(values: readonly string[]): string | string[] | undefined {
  if (values.length === 0) return undefined;
  return values.length === 1 ? values[0] : [...values];
}

/** The values of the user's REST API role claims, in the order they were added. */
export async function rolesOfUser(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await roleQuery(db).execute({ userId });
  return [...new Set(rows.map((r) => r.value))];
}

const roleQuery = preparedQuery((db) =>
  db
    .select({ value: userClaims.value })
    .from(userClaims)
    .where(and(eq(userClaims.userId, sql.placeholder('userId')), eq(userClaims.type, ROLE_CLAIM)))
    .orderBy(userClaims.id)
    .prepare('roles_of_user'),
);
