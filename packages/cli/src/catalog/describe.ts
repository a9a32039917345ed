import type { OperationDef } from '@idsvc/shared';
import type { BodyInfo, FieldInfo, OpInfo, ParamInfo, ValueType } from './types.js';

/** What this module reads of a zod v4 schema (its definition), without depending on zod's types. */
interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  element?: Schema;
  shape?: Record<string, Schema>;
  entries?: Record<string, string>;
  values?: unknown[];
  defaultValue?: unknown;
  format?: string;
  options?: Schema[];
}
interface Schema {
  _zod: { def: Def };
  description?: string;
}

const asSchema = (value: unknown) => value as Schema;

interface Unwrapped {
  schema: Schema;
  optional: boolean;
  nullable: boolean;
  default?: unknown;
  description?: string;
}

/** Looks through optional, nullable, default and pipe wrappers (a pipe is read by its output, a preprocess by its target). */
function unwrap(schema: Schema): Unwrapped {
  const out: Unwrapped = { schema, optional: false, nullable: false, description: schema.description };
  for (let depth = 0; depth < 10; depth++) {
    const def = out.schema._zod.def;
    if (def.type === 'optional') out.optional = true;
    else if (def.type === 'nullable') out.nullable = true;
    else if (def.type === 'default' || def.type === 'prefault') {
      out.optional = true;
      out.default = typeof def.defaultValue === 'function' ? undefined : def.defaultValue;
    } else if (def.type === 'pipe') {
      const target = def.out?._zod.def.type === 'transform' ? def.in : def.out;
      if (!target) break;
      // A string-to-boolean pipe (z.stringbool) is a boolean to the person typing it.
      out.schema = target;
      out.description ??= target.description;
      continue;
    } else break;
    const inner = def.innerType;
    if (!inner) break;
    out.schema = inner;
    out.description ??= inner.description;
  }
  return out;
}

function enumValues(def: Def): string[] | undefined {
  if (def.type === 'enum' && def.entries) return Object.values(def.entries).map(String);
  if (def.type === 'literal' && def.values) return def.values.map(String);
  return undefined;
}

function valueType(def: Def): ValueType {
  switch (def.type) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return def.format === 'safeint' || def.format === 'int32' ? 'integer' : 'number';
    case 'enum':
    case 'literal':
      return 'enum';
    case 'array':
      return 'array';
    case 'object':
    case 'record':
      return 'object';
    default:
      return 'unknown';
  }
}

function typeText(schema: Schema): string {
  const { schema: inner } = unwrap(schema);
  const def = inner._zod.def;
  if (def.type === 'array' && def.element) return `${typeText(def.element)}[]`;
  if (def.type === 'union' && def.options) return [...new Set(def.options.map(typeText))].join('|');
  const type = valueType(def);
  return type === 'unknown' ? 'any' : type;
}

function param(name: string, raw: unknown, inPath: boolean): ParamInfo {
  const u = unwrap(asSchema(raw));
  const def = u.schema._zod.def;
  const info: ParamInfo = { name, type: valueType(def), required: inPath || !u.optional };
  const values = enumValues(def);
  if (values) info.values = values;
  if (u.default !== undefined && ['string', 'number', 'boolean'].includes(typeof u.default)) {
    info.default = u.default as string | number | boolean;
  }
  if (def.type === 'string' && def.format) info.format = def.format;
  if (u.description) info.description = u.description;
  return info;
}

function params(shape: unknown, inPath: boolean): ParamInfo[] {
  const entries = Object.entries((shape as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
  return entries.map(([name, raw]) => param(name, raw, inPath));
}

function fields(object: Schema): FieldInfo[] {
  return Object.entries(object._zod.def.shape ?? {}).map(([name, raw]) => {
    const u = unwrap(raw);
    const field: FieldInfo = { name, type: typeText(raw), required: !u.optional, nullable: u.nullable };
    const values = enumValues(u.schema._zod.def);
    if (values) field.values = values;
    if (u.description) field.description = u.description;
    return field;
  });
}

function body(raw: unknown): BodyInfo | undefined {
  if (!raw) return undefined;
  const u = unwrap(asSchema(raw));
  const def = u.schema._zod.def;
  const info: BodyInfo = { shape: 'other', required: !u.optional };
  if (u.description) info.description = u.description;
  if (def.type === 'object') {
    info.shape = 'object';
    info.fields = fields(u.schema);
  } else if (def.type === 'array' && def.element) {
    info.shape = 'array';
    const item = unwrap(def.element).schema;
    if (item._zod.def.type === 'object') info.fields = fields(item);
    else info.description ??= `a JSON array of ${typeText(def.element)}`;
  } else if (def.type === 'string') {
    info.shape = 'string';
  }
  return info;
}

/** The CLI's plain-data view of one catalog operation. */
export function describeOperation(op: OperationDef): OpInfo {
  const info: OpInfo = {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    summary: op.summary,
    tag: op.tag,
    role: op.role,
    params: params(op.params, true),
    query: params(op.query, false),
    statuses: [...op.statuses],
    cli: { group: op.cli.group, action: op.cli.action },
  };
  const b = body(op.body);
  if (b) info.body = b;
  if (op.list) info.list = { kind: op.list.kind, sortable: [...op.list.sortable], defaultSort: op.list.defaultSort };
  return info;
}

export function describeCatalog(catalog: readonly OperationDef[]): OpInfo[] {
  return catalog.map(describeOperation);
}
