import { badRequest } from '../http/api-error.js';

export type PatchOp = { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown };

function readKey(item: Record<string, unknown>, key: string): unknown {
  const found = Object.keys(item).find((k) => k.toLowerCase() === key);
  return found === undefined ? undefined : item[found];
}

/** Reads a PATCH body: an array of `{op, path, value}` whose keys are case-insensitive. */
export function parsePatch(body: unknown): PatchOp[] {
  if (!Array.isArray(body) || body.length === 0) {
    throw badRequest('the body must be a non-empty array of operations {"op", "path", "value"}');
  }
  return body.map((raw, index) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      throw badRequest(`operation ${index} is not an object`, [{ index }]);
    }
    const item = raw as Record<string, unknown>;
    const op = String(readKey(item, 'op') ?? '').toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      throw badRequest(`operation ${index}: op must be add, replace or remove`, [{ index, op: readKey(item, 'op') }]);
    }
    const path = readKey(item, 'path');
    if (path !== undefined && path !== null && typeof path !== 'string') {
      throw badRequest(`operation ${index}: path must be a string`, [{ index }]);
    }
    return { op, path: (path ?? '').trim(), value: readKey(item, 'value') };
  });
}

/**
 * Applies operations to a copy of `current`. Only the `editable` fields may be named (case-insensitively); an
 * empty path with an object value sets each of its fields. The caller validates the result with the resource's
 * input schema, so a wrong value type is refused before anything is stored.
 */
export function applyPatch(
  current: Record<string, unknown>,
  ops: PatchOp[],
  editable: readonly string[],
): Record<string, unknown> {
  const next: Record<string, unknown> = structuredClone(current);
  const fieldOf = (name: string, index: number) => {
    const field = editable.find((f) => f.toLowerCase() === name.toLowerCase());
    if (!field)
      throw badRequest(`operation ${index}: unknown path "${name}"`, [{ index, path: name, allowed: editable }]);
    return field;
  };
  ops.forEach((op, index) => {
    if (!op.path) {
      if (op.op === 'remove' || !op.value || typeof op.value !== 'object' || Array.isArray(op.value)) {
        throw badRequest(`operation ${index}: an operation without a path needs an object value`, [{ index }]);
      }
      for (const [name, value] of Object.entries(op.value)) next[fieldOf(name, index)] = value;
      return;
    }
    const field = fieldOf(op.path, index);
    const existing = next[field];
    if (op.op === 'remove') {
      if (Array.isArray(existing) && op.value !== undefined) {
        const drop = (Array.isArray(op.value) ? op.value : [op.value]).map((v) => JSON.stringify(v));
        next[field] = existing.filter((v) => !drop.includes(JSON.stringify(v)));
      } else {
        next[field] = Array.isArray(existing) ? [] : null;
      }
    } else if (op.op === 'add' && Array.isArray(existing)) {
      next[field] = [...existing, ...(Array.isArray(op.value) ? op.value : [op.value])];
    } else {
      if (op.value === undefined) throw badRequest(`operation ${index}: ${op.op} needs a value`, [{ index }]);
      next[field] = op.value;
    }
  });
  return next;
}
