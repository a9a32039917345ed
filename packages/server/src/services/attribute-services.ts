import type { AttributeService, AttributeServiceInput } from '@idsvc/shared';
import type { Db } from '../db/client.js';
import { attributeServices } from '../db/schema/index.js';
import type { DocumentRow } from '../queries/documents.js';
import { type DocumentResource, documentService } from './documents.js';

const secretKey = /pass(word)?|secret|token|key|credential/i;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The configuration without its secret settings (passwords, keys…): those are never returned. */
export function publicConfiguration(configuration: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(configuration).filter(([key]) => !secretKey.test(key)));
}

/** The new configuration, keeping the stored secret settings the input does not repeat (clients never see them). */
export function mergeSecrets(
  input: Record<string, unknown>,
  current: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const kept = Object.entries(current ?? {}).filter(([key]) => secretKey.test(key) && !(key in input));
  return { ...input, ...Object.fromEntries(kept) };
}

/**
 * Attribute service connections, keyed by name. Nothing refers to them yet (no connection names an attribute
 * service), so none is ever "in use": PUT answers 404 only for a missing one, and DELETE always succeeds.
 */
export const attributeServiceResource: DocumentResource<AttributeService, AttributeServiceInput> = {
  table: attributeServices,
  label: 'attribute service',
  keyField: 'name',
  fields: {
    name: { type: 'string' },
    accessOrganizationName: { type: 'string' },
    description: { type: 'string' },
    enabled: { type: 'boolean' },
  },
  keyOf: (input) => input.name.trim(),
  toData: (input, current) => ({
    description: input.description ?? null,
    accessOrganizationName: input.accessOrganizationName ?? null,
    enabled: input.enabled ?? true,
    configuration: mergeSecrets(
      input.configuration ?? {},
      current?.configuration as Record<string, unknown> | undefined,
    ),
  }),
  toApi: (row: DocumentRow) => ({
    name: row.name,
    description: text(row.data.description),
    accessOrganizationName: text(row.data.accessOrganizationName),
    enabled: row.data.enabled !== false,
    configuration: publicConfiguration((row.data.configuration as Record<string, unknown> | undefined) ?? {}),
  }),
};

export function attributeServiceService(db: Db) {
  return documentService(db, attributeServiceResource);
}

export type AttributeServiceService = ReturnType<typeof attributeServiceService>;
