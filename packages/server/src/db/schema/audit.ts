import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per create, update or delete made through the admin API (secrets masked). */
export const auditRecords = pgTable(
  'audit_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor: text('actor').notNull(),
    operation: text('operation').notNull(),
    entityType: text('entity_type').notNull(),
    entityKey: text('entity_key').notNull(),
    changes: jsonb('changes').$type<Record<string, unknown>>(),
    requestId: text('request_id'),
  },
  (t) => [index('audit_records_at').on(t.at), index('audit_records_entity').on(t.entityType, t.entityKey)],
);
