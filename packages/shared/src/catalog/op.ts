import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** REST API roles, weakest first. A role grants everything the roles before it grant. */
export const roles = ['User', 'Observer', 'Administrator'] as const;
export type Role = (typeof roles)[number];

/** Paging, sorting and filtering that an operation takes (the spec's "PG", plus filter/attributes). */
export interface ListSpec {
  /** `list`: PG only; `filter`: PG plus filter and attributes. */
  kind: 'list' | 'filter';
  /** Accepted sortBy values (field names as the spec writes them). */
  sortable: readonly string[];
  /** Used when sortBy is blank or not in `sortable`. */
  defaultSort: string;
}

export interface CliSpec {
  /** Command group, e.g. `users`. */
  group: string;
  /** Action within the group, e.g. `list`. */
  action: string;
}

export interface OperationDef {
  operationId: string;
  method: HttpMethod;
  /** Path template with `{name}` parameters, exactly as in operations.tsv. */
  path: string;
  /** One sentence for help texts and OpenAPI. */
  summary: string;
  /** OpenAPI tag / resource name. */
  tag: string;
  /** Weakest role that may call the operation. */
  role: Role;
  /** Path parameters (all strings in the URL). */
  params?: z.ZodObject;
  /** Query parameters other than paging/filter (which `list` implies). Values arrive as strings. */
  query?: z.ZodObject;
  /** Request body schema. */
  body?: z.ZodType;
  /** Body of a 200 response (absent: empty success). */
  response?: z.ZodType;
  /** The spec's statuses, sorted: 200, 401 and 403 included (403 left out where the spec lists none). */
  statuses: readonly number[];
  list?: ListSpec;
  cli: CliSpec;
}

/** Declares an operation; identity at run time, it keeps the literal types for consumers. */
export function op<const T extends OperationDef>(def: T): T {
  return def;
}
