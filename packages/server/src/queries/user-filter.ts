import { type SQL, sql } from 'drizzle-orm';
import type { FilterSchema } from '../conventions/filter-sql.js';
import { groups, organizations, userClaims, userGroups, users } from '../db/schema/index.js';
import { lower } from './sql.js';

const str = (expr: SQL) => ({ sql: expr, type: 'string' as const });
const bool = (expr: SQL) => ({ sql: expr, type: 'boolean' as const });
const time = (expr: SQL) => ({ sql: expr, type: 'datetime' as const });

/** SCIM attributes of a user, as SQL over `users` joined to its organization. */
export const userFilter: FilterSchema = {
  attributes: {
    id: str(sql`${users.id}::text`),
    username: str(sql`${users.userName}`),
    email: str(sql`${users.email}`),
    displayname: str(sql`${users.displayName}`),
    phonenumber: str(sql`${users.phoneNumber}`),
    organization: str(sql`${organizations.name}`),
    active: bool(sql`${users.active}`),
    locked: bool(sql`${users.locked}`),
    forceresetpasswordafterfirsttimelogin: bool(sql`${users.forceResetPassword}`),
    createdat: time(sql`${users.createdAt}`),
    updatedat: time(sql`${users.updatedAt}`),
    'meta.created': time(sql`${users.createdAt}`),
    'meta.lastmodified': time(sql`${users.updatedAt}`),
  },
  multiValued: {
    groups: {
      exists: (condition) =>
        sql`exists (select 1 from ${userGroups} join ${groups} on ${groups.id} = ${userGroups.groupId} where ${userGroups.userId} = ${users.id} and ${condition})`,
      sub: { value: str(sql`${groups.name}`), name: str(sql`${groups.name}`), display: str(sql`${groups.name}`) },
      primary: 'value',
    },
    claims: {
      exists: (condition) =>
        sql`exists (select 1 from ${userClaims} where ${userClaims.userId} = ${users.id} and ${condition})`,
      sub: { type: str(sql`${userClaims.type}`), value: str(sql`${userClaims.value}`) },
      primary: 'value',
    },
  },
};

/** Sortable fields of the user lists. */
export const userSort: Record<string, SQL> = {
  username: lower(users.userName),
  displayname: lower(users.displayName),
  active: sql`${users.active}`,
  groups: sql`(select min(lower(${groups.name})) from ${userGroups} join ${groups} on ${groups.id} = ${userGroups.groupId} where ${userGroups.userId} = ${users.id})`,
  organization: lower(organizations.name),
  forceresetpasswordafterfirsttimelogin: sql`${users.forceResetPassword}`,
};

/** Users that hold a claim of the type (and value, when given): Users_GetAll's claimType/value. */
export function hasClaim(type: string, value: string | undefined): SQL {
  const valueMatch = value === undefined ? sql`` : sql` and lower(${userClaims.value}) = lower(${value})`;
  return sql`exists (select 1 from ${userClaims} where ${userClaims.userId} = ${users.id} and ${userClaims.type} = ${type}${valueMatch})`;
}
