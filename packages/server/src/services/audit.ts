import type { DbOrTx } from '../db/client.js';
import { bulkInsert } from '../queries/bulk.js';

const secretFields = /pass(word)?|secret|token|key|otp|credential/i;

/** Replaces the values of secret fields with a mask, at any depth. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, secretFields.test(k) && v != null ? '***' : maskSecrets(v)]),
    );
  }
  return value;
}

export interface AuditEntry {
  actor: string;
  operation: 'create' | 'update' | 'delete';
  entityType: string;
  entityKey: string;
  changes?: Record<string, unknown>;
  requestId?: string;
}

/** Writes audit records in the caller's transaction, one multi-row insert. */
export async function audit(db: DbOrTx, entries: AuditEntry | AuditEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  await bulkInsert(
    db,
    'audit_records',
    [
      ['actor', 'text'],
      ['operation', 'text'],
      ['entity_type', 'text'],
      ['entity_key', 'text'],
      ['changes', 'jsonb'],
      ['request_id', 'text'],
    ],
    list.map((e) => [
      e.actor,
      e.operation,
      e.entityType,
      e.entityKey,
      e.changes ? (maskSecrets(e.changes) as object) : null,
      e.requestId ?? null,
    ]),
  );
}
