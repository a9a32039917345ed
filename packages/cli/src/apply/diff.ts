/** One changed field: where, what it is, what it becomes. */
export interface FieldChange {
  path: string;
  from: unknown;
  to: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || typeof v !== 'object';

function sameScalarSets(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  const key = (v: unknown) => JSON.stringify(v);
  const counts = new Map<string, number>();
  for (const v of a) counts.set(key(v), (counts.get(key(v)) ?? 0) + 1);
  for (const v of b) {
    const n = counts.get(key(v));
    if (!n) return false;
    counts.set(key(v), n - 1);
  }
  return true;
}

/**
 * Whether `current` already matches `desired` in every field `desired` gives: objects are compared field by field
 * (fields the document leaves out are not compared), lists of plain values regardless of order, other lists item
 * by item; an absent current value equals null.
 */
export function matches(desired: unknown, current: unknown): boolean {
  if (isObject(desired)) {
    if (!isObject(current)) return false;
    return Object.entries(desired).every(([k, v]) => matches(v, current[k]));
  }
  if (Array.isArray(desired)) {
    if (!Array.isArray(current)) return desired.length === 0 && (current === undefined || current === null);
    if (desired.every(isScalar) && current.every(isScalar)) return sameScalarSets(desired, current);
    return desired.length === current.length && desired.every((v, i) => matches(v, current[i]));
  }
  if (desired === null || desired === undefined) return current === null || current === undefined;
  return desired === current;
}

/** The fields of `desired` that `current` does not match, by dotted path; `skip` paths (secrets) are left out. */
export function diff(
  desired: Record<string, unknown>,
  current: Record<string, unknown>,
  skip: readonly string[] = [],
  prefix = '',
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [key, value] of Object.entries(desired)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (skip.includes(path)) continue;
    const now = current[key];
    if (matches(value, now)) continue;
    if (isObject(value) && isObject(now)) changes.push(...diff(value, now, skip, path));
    else changes.push({ path, from: now ?? null, to: value });
  }
  return changes;
}

/** `current` with `desired` laid over it, objects merged field by field (the body of an update). */
export function merge(current: Record<string, unknown>, desired: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(desired)) {
    out[key] =
      isObject(value) && isObject(current[key]) ? merge(current[key] as Record<string, unknown>, value) : value;
  }
  return out;
}
