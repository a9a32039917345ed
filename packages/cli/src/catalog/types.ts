/**
 * The operation catalog as the CLI needs it: plain data, generated from @idsvc/shared's zod catalog into
 * `data.ts` so that building the command tree does not load zod (`idsvc --help` must start fast).
 */

/** The kind of value a parameter or body field takes, for help texts and flag parsing. */
export type ValueType = 'string' | 'boolean' | 'number' | 'integer' | 'enum' | 'array' | 'object' | 'unknown';

export interface ParamInfo {
  name: string;
  type: ValueType;
  required: boolean;
  /** Allowed values of an enum. */
  values?: string[];
  /** The default the server applies when the parameter is absent. */
  default?: string | number | boolean;
  /** `guid` for GUID path parameters. */
  format?: string;
  description?: string;
}

export interface FieldInfo {
  name: string;
  /** e.g. `string`, `boolean`, `string[]`, `enum`, `object`, `object[]`. */
  type: string;
  required: boolean;
  nullable: boolean;
  values?: string[];
  description?: string;
}

export interface BodyInfo {
  /** `object`: one JSON object; `array`: a JSON array; `string`: a JSON string; `other`: anything else. */
  shape: 'object' | 'array' | 'string' | 'other';
  required: boolean;
  /** The fields of the object (or of the array's items). */
  fields?: FieldInfo[];
  description?: string;
}

export interface ListInfo {
  kind: 'list' | 'filter';
  sortable: string[];
  defaultSort: string;
}

export interface OpInfo {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  tag: string;
  role: string;
  params: ParamInfo[];
  query: ParamInfo[];
  body?: BodyInfo;
  list?: ListInfo;
  statuses: number[];
  cli: { group: string; action: string };
}
