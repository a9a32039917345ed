import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.js';

export const organizations = pgTable(
  'organizations',
  {
    id: idColumn(),
    name: text('name').notNull(),
    displayName: text('display_name'),
    parentId: uuid('parent_id').references((): AnyPgColumn => organizations.id),
    accessOrganizationName: text('access_organization_name'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('organizations_name_lower').on(sql`lower(${t.name})`),
    index('organizations_parent').on(t.parentId),
  ],
);

export const groups = pgTable(
  'groups',
  {
    id: idColumn(),
    name: text('name').notNull(),
    description: text('description'),
    accessOrganizationName: text('access_organization_name'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('groups_name_lower').on(sql`lower(${t.name})`)],
);

export const users = pgTable(
  'users',
  {
    id: idColumn(),
    userName: text('user_name').notNull(),
    email: text('email'),
    displayName: text('display_name'),
    active: boolean('active').notNull().default(true),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    forceResetPassword: boolean('force_reset_password').notNull().default(false),
    phoneNumber: text('phone_number'),
    passwordHash: text('password_hash'),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    passwordExpiresAt: timestamp('password_expires_at', { withTimezone: true }),
    locked: boolean('locked').notNull().default(false),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    failedLoginCount: integer('failed_login_count').notNull().default(0),
    failedPasswordChangeCount: integer('failed_password_change_count').notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('users_user_name_lower').on(sql`lower(${t.userName}) text_pattern_ops`),
    uniqueIndex('users_email_lower').on(sql`lower(${t.email}) text_pattern_ops`),
    index('users_organization').on(t.organizationId),
    index('users_locked').on(t.locked).where(sql`${t.locked}`),
  ],
);

export const userGroups = pgTable(
  'user_groups',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.groupId] }), index('user_groups_group').on(t.groupId)],
);

export const userClaims = pgTable(
  'user_claims',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    value: text('value').notNull(),
  },
  (t) => [
    index('user_claims_user').on(t.userId),
    index('user_claims_type_value').on(t.type, sql`lower(${t.value}) text_pattern_ops`),
  ],
);
