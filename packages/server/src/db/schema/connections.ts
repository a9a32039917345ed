import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.js';

export const connections = pgTable(
  'connections',
  {
    id: idColumn(),
    name: text('name').notNull(),
    connectionType: text('connection_type').notNull(),
    pluginType: text('plugin_type').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    accessOrganizationName: text('access_organization_name'),
    entityId: text('entity_id'),
    /** OAuth20 protocol connections: the client id the runtime looks clients up by. */
    clientId: text('client_id'),
    /** SHA-256 digest (hex) of a generated client secret. */
    clientSecretHash: text('client_secret_hash'),
    /** HMAC-signing clients: the secret encrypted at rest (the server signs with it). */
    clientSecretEnc: text('client_secret_enc'),
    configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull().default({}),
    scopes: jsonb('scopes').$type<string[]>().notNull().default([]),
    claimSets: jsonb('claim_sets').$type<string[]>().notNull().default([]),
    appliedHomeRealmDiscoveryRules: jsonb('applied_hrd_rules').$type<string[]>().notNull().default([]),
    dependencyConnectionNames: jsonb('dependency_connection_names').$type<string[]>().notNull().default([]),
    claimTransformations: jsonb('claim_transformations').$type<string[]>().notNull().default([]),
    certificates: jsonb('certificates').$type<string[]>().notNull().default([]),
    metadataReference: jsonb('metadata_reference').$type<Record<string, unknown> | null>(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('connections_name_lower').on(sql`lower(${t.name})`),
    uniqueIndex('connections_client_id').on(t.clientId),
    index('connections_entity_id').on(t.entityId),
  ],
);
