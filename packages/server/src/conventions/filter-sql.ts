import {
  type AttrPath,
  type CompareNode,
  type CompareOperator,
  type FilterNode,
  type FilterValue,
  InvalidFilterError,
} from '@idsvc/shared';
import { type SQL, sql } from 'drizzle-orm';

export type ScalarType = 'string' | 'boolean' | 'number' | 'datetime';

export interface FilterAttribute {
  sql: SQL;
  type: ScalarType;
  caseExact?: boolean;
}

export interface MultiValuedAttribute {
  /** Wraps a condition over the sub-attributes into EXISTS (SELECT 1 FROM … WHERE <link> AND <cond>). */
  exists: (condition: SQL) => SQL;
  /** Lower-case sub-attribute name → expression inside the subquery. */
  sub: Record<string, FilterAttribute>;
  /** Sub-attribute used when the attribute itself is compared: `groups eq "Staff"` → sub[primary]. */
  primary: string;
}

export interface FilterSchema {
  /** Lower-case attribute name → expression. */
  attributes: Record<string, FilterAttribute>;
  /** Lower-case multi-valued attribute name → description. */
  multiValued?: Record<string, MultiValuedAttribute>;
}

/** Where a single (scalar or multi-valued) attribute path leads. */
type Target =
  | { kind: 'scalar'; name: string; attribute: FilterAttribute }
  | { kind: 'multi'; name: string; multi: MultiValuedAttribute; attribute: FilterAttribute | undefined };

const SQL_OPERATOR: Record<'eq' | 'gt' | 'ge' | 'lt' | 'le', string> = {
  eq: '=',
  gt: '>',
  ge: '>=',
  lt: '<',
  le: '<=',
};
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d{2}):?(\d{2}))?)?$/;

/**
 * Translates a parsed SCIM filter into a SQL condition over the attributes `schema` describes.
 * Every value is a bound parameter. Strings compare case-insensitively (unless `caseExact`) as
 * `lower(<expr>)`, so expression indexes on `lower(column)` apply.
 * @throws InvalidFilterError for an unknown attribute or sub-attribute, or a value or operator that does not fit
 * the attribute's type.
 */
export function filterToSql(node: FilterNode, schema: FilterSchema): SQL {
  return translate(node, schema);
}

function translate(node: FilterNode, schema: FilterSchema): SQL {
  switch (node.kind) {
    case 'and':
      return sql`(${translate(node.left, schema)} AND ${translate(node.right, schema)})`;
    case 'or':
      return sql`(${translate(node.left, schema)} OR ${translate(node.right, schema)})`;
    case 'not': {
      // An absent attribute makes a comparison unknown (NULL); SCIM reads it as false, so `not` of it is true.
      const inner = translate(node.expr, schema);
      return sql`NOT coalesce(${inner}, false)`;
    }
    case 'present':
      return present(node.attr, schema);
    case 'compare':
      return compareNode(node, schema);
    case 'valuePath':
      return valuePath(node.attr, node.filter, schema);
  }
}

function valuePath(attr: string, filter: FilterNode, schema: FilterSchema): SQL {
  const found = lookup(schema.multiValued, attr);
  if (!found) {
    if (lookup(schema.attributes, attr)) {
      throw new InvalidFilterError(`'${attr}' is not a multi-valued attribute and cannot take a [filter]`);
    }
    throw new InvalidFilterError(`unknown attribute '${attr}'`);
  }
  return found.value.exists(translate(filter, { attributes: found.value.sub }));
}

function present(path: AttrPath, schema: FilterSchema): SQL {
  const target = resolve(path, schema);
  if (target.kind === 'multi') {
    return target.multi.exists(target.attribute ? isPresent(target.attribute) : sql`true`);
  }
  return isPresent(target.attribute);
}

function isPresent(attribute: FilterAttribute): SQL {
  const expr = attribute.sql;
  return attribute.type === 'string' ? sql`(${expr} IS NOT NULL AND ${expr} <> '')` : sql`${expr} IS NOT NULL`;
}

function compareNode(node: CompareNode, schema: FilterSchema): SQL {
  const target = resolve(node.attr, schema);
  if (target.kind === 'scalar') return compare(target.name, target.attribute, node.op, node.value);
  if (target.attribute) return target.multi.exists(compare(target.name, target.attribute, node.op, node.value));
  // The multi-valued attribute itself: compared through its primary sub-attribute, and (RFC 7643 §2.5)
  // null stands for "no values".
  if (node.value === null && (node.op === 'eq' || node.op === 'ne')) {
    const any = target.multi.exists(sql`true`);
    return node.op === 'eq' ? sql`NOT ${any}` : any;
  }
  const primary = target.multi.sub[target.multi.primary.toLowerCase()];
  if (!primary) throw new InvalidFilterError(`attribute '${target.name}' cannot be compared with a value`);
  return target.multi.exists(compare(target.name, primary, node.op, node.value));
}

function compare(name: string, attribute: FilterAttribute, op: CompareOperator, value: FilterValue): SQL {
  const expr = attribute.sql;
  if (value === null) {
    if (op === 'eq') return sql`${expr} IS NULL`;
    if (op === 'ne') return sql`${expr} IS NOT NULL`;
    throw new InvalidFilterError(`operator '${op}' cannot compare '${name}' with null`);
  }
  switch (attribute.type) {
    case 'string':
      if (typeof value !== 'string') throw wrongValue(name, 'a string', value);
      return compareString(attribute, op, value);
    case 'boolean':
      if (op !== 'eq' && op !== 'ne') throw wrongOperator(name, 'boolean', op);
      if (typeof value !== 'boolean') throw wrongValue(name, 'true or false', value);
      return op === 'eq' ? sql`${expr} = ${value}` : sql`${expr} IS DISTINCT FROM ${value}`;
    case 'number':
      if (op === 'co' || op === 'sw' || op === 'ew') throw wrongOperator(name, 'number', op);
      if (typeof value !== 'number') throw wrongValue(name, 'a number', value);
      return op === 'ne' ? sql`${expr} IS DISTINCT FROM ${value}` : sql`${expr} ${sql.raw(SQL_OPERATOR[op])} ${value}`;
    case 'datetime': {
      if (op === 'co' || op === 'sw' || op === 'ew') throw wrongOperator(name, 'date-time', op);
      if (typeof value !== 'string' || !isDateTime(value)) {
        throw wrongValue(name, 'a date-time string such as "2024-01-31T12:00:00Z"', value);
      }
      return op === 'ne'
        ? sql`${expr} IS DISTINCT FROM ${value}::timestamptz`
        : sql`${expr} ${sql.raw(SQL_OPERATOR[op])} ${value}::timestamptz`;
    }
  }
}

function compareString(attribute: FilterAttribute, op: CompareOperator, value: string): SQL {
  const exact = attribute.caseExact === true;
  const expr = exact ? attribute.sql : sql`lower(${attribute.sql})`;
  const param = (v: string): SQL => (exact ? sql`${v}` : sql`lower(${v})`);
  switch (op) {
    case 'ne':
      return sql`${expr} IS DISTINCT FROM ${param(value)}`;
    case 'co':
      return sql`${expr} LIKE ${param(`%${escapeLike(value)}%`)}`;
    case 'sw':
      return sql`${expr} LIKE ${param(`${escapeLike(value)}%`)}`;
    case 'ew':
      return sql`${expr} LIKE ${param(`%${escapeLike(value)}`)}`;
    default:
      return sql`${expr} ${sql.raw(SQL_OPERATOR[op])} ${param(value)}`;
  }
}

/** Escapes LIKE's wildcards and its escape character (PostgreSQL's default, `\`). */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** An ISO 8601 date or date-time whose fields are in range (PostgreSQL would reject 2024-02-30). */
function isDateTime(value: string): boolean {
  const m = DATETIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = m.slice(1).map((v) => Number(v ?? 0));
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    year >= 1 &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHour <= 15 &&
    offsetMinute <= 59
  );
}

function wrongValue(name: string, expected: string, value: FilterValue): InvalidFilterError {
  return new InvalidFilterError(`attribute '${name}' must be compared with ${expected}, not ${JSON.stringify(value)}`);
}

function wrongOperator(name: string, type: string, op: CompareOperator): InvalidFilterError {
  const allowed = type === 'boolean' ? "'eq', 'ne' and 'pr'" : "'eq', 'ne', 'gt', 'ge', 'lt', 'le' and 'pr'";
  return new InvalidFilterError(`operator '${op}' does not apply to ${type} attribute '${name}' (use ${allowed})`);
}

/** Case-insensitive look-up; a URN-prefixed name falls back to its last `:` segment. */
function lookup<T>(record: Record<string, T> | undefined, name: string): { key: string; value: T } | undefined {
  if (!record) return undefined;
  const lower = name.toLowerCase();
  const candidates = [lower, lower.slice(lower.lastIndexOf(':') + 1)];
  for (const key of candidates) {
    if (Object.hasOwn(record, key)) return { key, value: record[key] };
  }
  return undefined;
}

function resolve(path: AttrPath, schema: FilterSchema): Target {
  const written = path.sub === undefined ? path.attr : `${path.attr}.${path.sub}`;
  const multi = lookup(schema.multiValued, path.attr);
  if (multi) {
    if (path.sub === undefined) return { kind: 'multi', name: written, multi: multi.value, attribute: undefined };
    const sub = lookup(multi.value.sub, path.sub);
    if (!sub) throw new InvalidFilterError(`unknown sub-attribute '${path.sub}' of '${path.attr}'`);
    return { kind: 'multi', name: written, multi: multi.value, attribute: sub.value };
  }
  const scalar = lookup(schema.attributes, written);
  if (scalar) return { kind: 'scalar', name: written, attribute: scalar.value };
  if (path.sub !== undefined && lookup(schema.attributes, path.attr)) {
    throw new InvalidFilterError(`unknown sub-attribute '${path.sub}' of '${path.attr}'`);
  }
  throw new InvalidFilterError(`unknown attribute '${written}'`);
}
