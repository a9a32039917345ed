import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Primary key column of every resource that has a GUID. */
export const idColumn = () => uuid('id').primaryKey().defaultRandom();

/** Creation and last-change instants, kept by the database. */
export const timestamps = () => ({
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
