import { z } from 'zod';
import { AttributeService, AttributeServiceInput, Name } from '../schemas/index.js';
import { partialList, statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'AttributeServices';
const group = 'attributeservices';
const sortable = ['name', 'accessOrganizationName'];
const nameParams = z.object({ attributeServiceName: Name });

export const AttributeServices_GetAll = op({
  operationId: 'AttributeServices_GetAll',
  method: 'GET',
  path: '/api/rest/v2/attributeservices',
  summary: 'List attribute service connections.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable, defaultSort: 'name' },
  response: z.array(AttributeService),
  statuses: statuses(),
  cli: { group, action: 'list' },
});

export const AttributeServices_PostConnection = op({
  operationId: 'AttributeServices_PostConnection',
  method: 'POST',
  path: '/api/rest/v2/attributeservices',
  summary: 'Create an attribute service connection.',
  tag,
  role: 'Administrator',
  body: AttributeServiceInput,
  response: AttributeService,
  statuses: statuses(400, 409),
  cli: { group, action: 'create' },
});

export const AttributeServices_PutConnection = op({
  operationId: 'AttributeServices_PutConnection',
  method: 'PUT',
  path: '/api/rest/v2/attributeservices',
  summary: 'Update an attribute service connection, found by name.',
  tag,
  role: 'Administrator',
  body: AttributeServiceInput,
  response: AttributeService,
  statuses: statuses(400, 404),
  cli: { group, action: 'update' },
});

export const AttributeServices_GetAllFilter = op({
  operationId: 'AttributeServices_GetAllFilter',
  method: 'GET',
  path: '/api/rest/v2/attributeservices/.filter',
  summary: 'List attribute service connections matching a SCIM filter.',
  tag,
  role: 'Observer',
  list: { kind: 'filter', sortable, defaultSort: 'name' },
  response: partialList(AttributeService),
  statuses: statuses(400),
  cli: { group, action: 'filter' },
});

export const AttributeServices_GetConnection = op({
  operationId: 'AttributeServices_GetConnection',
  method: 'GET',
  path: '/api/rest/v2/attributeservices/{attributeServiceName}',
  summary: 'Get an attribute service connection by name.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: AttributeService,
  statuses: statuses(400, 404),
  cli: { group, action: 'get' },
});

export const AttributeServices_DeleteConnection = op({
  operationId: 'AttributeServices_DeleteConnection',
  method: 'DELETE',
  path: '/api/rest/v2/attributeservices/{attributeServiceName}',
  summary: 'Delete an attribute service connection (success also when it does not exist).',
  tag,
  role: 'Administrator',
  params: nameParams,
  statuses: statuses(404),
  cli: { group, action: 'delete' },
});

export const attributeServiceOperations = [
  AttributeServices_GetAll,
  AttributeServices_PostConnection,
  AttributeServices_PutConnection,
  AttributeServices_GetAllFilter,
  AttributeServices_GetConnection,
  AttributeServices_DeleteConnection,
] as const;
