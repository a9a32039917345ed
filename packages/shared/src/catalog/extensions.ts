import { z } from 'zod';
import { CorrelationError, FieldRule, FieldRuleInput, Name } from '../schemas/index.js';
import { statuses } from './helpers.js';
import type { OperationDef } from './op.js';
import { op } from './op.js';

/*
 * Operations the specification names without detail (field configuration, correlation error): designed here in
 * the spirit of the others. They are served, documented and typed like the catalog's, but kept out of `catalog`,
 * which holds exactly the specification's operations.tsv.
 */

const fieldTag = 'FieldConfiguration';
const fieldGroup = 'fieldconfiguration';
const fieldParams = z.object({ fieldName: Name });

export const FieldConfiguration_GetAll = op({
  operationId: 'FieldConfiguration_GetAll',
  method: 'GET',
  path: '/api/rest/v2/fieldconfiguration',
  summary: 'List the field validation rules (the password rule always among them).',
  tag: fieldTag,
  role: 'Observer',
  response: z.array(FieldRule),
  statuses: statuses(),
  cli: { group: fieldGroup, action: 'list' },
});

export const FieldConfiguration_Get = op({
  operationId: 'FieldConfiguration_Get',
  method: 'GET',
  path: '/api/rest/v2/fieldconfiguration/{fieldName}',
  summary: 'Get the validation rule of a field; 404 when the field has none.',
  tag: fieldTag,
  role: 'Observer',
  params: fieldParams,
  response: FieldRule,
  statuses: statuses(404),
  cli: { group: fieldGroup, action: 'get' },
});

export const FieldConfiguration_Create = op({
  operationId: 'FieldConfiguration_Create',
  method: 'POST',
  path: '/api/rest/v2/fieldconfiguration',
  summary: 'Give a field a validation rule; 409 when it has one (the password always has one: use PUT).',
  tag: fieldTag,
  role: 'Administrator',
  body: FieldRuleInput,
  response: FieldRule,
  statuses: statuses(400, 409),
  cli: { group: fieldGroup, action: 'create' },
});

export const FieldConfiguration_Update = op({
  operationId: 'FieldConfiguration_Update',
  method: 'PUT',
  path: '/api/rest/v2/fieldconfiguration',
  summary: 'Replace the validation rule of a field, found by fieldName (the password validation rule among them).',
  tag: fieldTag,
  role: 'Administrator',
  body: FieldRuleInput,
  response: FieldRule,
  statuses: statuses(400, 404),
  cli: { group: fieldGroup, action: 'update' },
});

export const FieldConfiguration_Delete = op({
  operationId: 'FieldConfiguration_Delete',
  method: 'DELETE',
  path: '/api/rest/v2/fieldconfiguration/{fieldName}',
  summary: 'Remove the validation rule of a field; the password rule returns to the default. 404 when none.',
  tag: fieldTag,
  role: 'Administrator',
  params: fieldParams,
  statuses: statuses(404),
  cli: { group: fieldGroup, action: 'delete' },
});

const errorTag = 'CorrelationError';
const errorGroup = 'correlationerrors';

export const CorrelationError_GetAll = op({
  operationId: 'CorrelationError_GetAll',
  method: 'GET',
  path: '/api/rest/v2/correlationerror',
  summary: 'List the recorded errors (use sortOrder=Descending for the latest first).',
  tag: errorTag,
  role: 'Observer',
  list: { kind: 'list', sortable: ['occurredAt', 'status', 'operationId'], defaultSort: 'occurredAt' },
  response: z.array(CorrelationError),
  statuses: statuses(),
  cli: { group: errorGroup, action: 'list' },
});

export const CorrelationError_Get = op({
  operationId: 'CorrelationError_Get',
  method: 'GET',
  path: '/api/rest/v2/correlationerror/{correlationId}',
  summary: 'Look up an error by its correlation id (the requestId of an error answer); the latest when several.',
  tag: errorTag,
  role: 'Observer',
  params: z.object({ correlationId: z.string().min(1).max(128) }),
  response: CorrelationError,
  statuses: statuses(404),
  cli: { group: errorGroup, action: 'get' },
});

/** Admin operations beyond the specification's operations.tsv (served and documented like the catalog's). */
export const catalogExtensions: readonly OperationDef[] = [
  FieldConfiguration_GetAll,
  FieldConfiguration_Get,
  FieldConfiguration_Create,
  FieldConfiguration_Update,
  FieldConfiguration_Delete,
  CorrelationError_GetAll,
  CorrelationError_Get,
];
