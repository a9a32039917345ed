import { sql } from 'drizzle-orm';
import { customType, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.js';

/**
 * Resources whose fields are rarely queried keep their key as a column and the rest as one JSON document.
 * Filters still run in SQL: a field is `data->>'field'`.
 */
function namedDocuments(table: string) {
  return pgTable(
    table,
    {
      id: idColumn(),
      name: text('name').notNull(),
      data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
      ...timestamps(),
    },
    (t) => [uniqueIndex(`${table}_name_lower`).on(sql`lower(${t.name})`)],
  );
}

export const transformations = namedDocuments('transformations');
export const attributeServices = namedDocuments('attribute_services');
export const messageQueues = namedDocuments('message_queues');
export const sharedSettings = namedDocuments('shared_settings');
export const customContents = namedDocuments('custom_contents');
export const emailServers = namedDocuments('email_servers');
export const emailTemplates = namedDocuments('email_templates');
export const smsGateways = namedDocuments('sms_gateways');
export const smsTemplates = namedDocuments('sms_templates');
export const applications = namedDocuments('applications');
export const authContextClasses = namedDocuments('auth_context_classes');

const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

export const certificates = pgTable('certificates', {
  thumbprint: text('thumbprint').primaryKey(),
  der: bytea('der').notNull(),
  subject: text('subject').notNull(),
  issuer: text('issuer').notNull(),
  serialNumber: text('serial_number').notNull(),
  validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
  validTo: timestamp('valid_to', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single-row settings and server state by key: system setup, license, the generated secret key. */
export const systemState = pgTable('system_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
