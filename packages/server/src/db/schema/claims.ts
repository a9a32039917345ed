import { sql } from 'drizzle-orm';
import { boolean, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.js';

export const claimDefinitions = pgTable(
  'claim_definitions',
  {
    id: idColumn(),
    claimType: text('claim_type').notNull(),
    kind: text('kind').notNull(),
    friendlyName: text('friendly_name'),
    variableName: text('variable_name'),
    description: text('description'),
    avoidIssue: boolean('avoid_issue').notNull().default(false),
    avoidUpsize: boolean('avoid_upsize').notNull().default(false),
    countSpecification: text('count_specification').notNull().default('Multiple'),
    claimValueSpace: text('claim_value_space'),
    showAsColumnOnUserlist: boolean('show_as_column_on_userlist').notNull().default(false),
    sensitive: boolean('sensitive').notNull().default(false),
    userEditable: boolean('user_editable').notNull().default(false),
    restrictedSubOrganizationView: boolean('restricted_sub_organization_view').notNull().default(false),
    allowedValues: jsonb('allowed_values').$type<string[]>().notNull().default([]),
    groupNames: jsonb('group_names').$type<string[]>().notNull().default([]),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('claim_definitions_claim_type_lower').on(sql`lower(${t.claimType})`),
    uniqueIndex('claim_definitions_variable_name_lower').on(sql`lower(${t.variableName})`),
  ],
);

export const claimSets = pgTable(
  'claim_sets',
  {
    id: idColumn(),
    name: text('name').notNull(),
    description: text('description'),
    claimTypes: jsonb('claim_types').$type<string[]>().notNull().default([]),
    ...timestamps(),
  },
  (t) => [uniqueIndex('claim_sets_name_lower').on(sql`lower(${t.name})`)],
);
