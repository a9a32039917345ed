import { z } from 'zod';
import { BatchDeleteResult, Group, GroupInput, Name, NameList } from '../schemas/index.js';
import { partialList, statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'Groups';
const group = 'groups';
const sortable = ['name', 'accessOrganizationName'];
const nameParams = z.object({ groupName: Name });

export const Groups_GetAll = op({
  operationId: 'Groups_GetAll',
  method: 'GET',
  path: '/api/rest/v2/groups',
  summary: 'List groups.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable, defaultSort: 'name' },
  response: z.array(Group),
  statuses: statuses(),
  cli: { group, action: 'list' },
});

export const Groups_PostGroup = op({
  operationId: 'Groups_PostGroup',
  method: 'POST',
  path: '/api/rest/v2/groups',
  summary: 'Create a group.',
  tag,
  role: 'Administrator',
  body: GroupInput,
  response: Group,
  statuses: statuses(400, 409),
  cli: { group, action: 'create' },
});

export const Groups_PutGroup = op({
  operationId: 'Groups_PutGroup',
  method: 'PUT',
  path: '/api/rest/v2/groups',
  summary: 'Update a group, found by name.',
  tag,
  role: 'Administrator',
  body: GroupInput,
  response: Group,
  statuses: statuses(400, 404),
  cli: { group, action: 'update' },
});

export const Groups_GetAllFilter = op({
  operationId: 'Groups_GetAllFilter',
  method: 'GET',
  path: '/api/rest/v2/groups/.filter',
  summary: 'List groups matching a SCIM filter.',
  tag,
  role: 'Observer',
  list: { kind: 'filter', sortable, defaultSort: 'name' },
  response: partialList(Group),
  statuses: statuses(400),
  cli: { group, action: 'filter' },
});

export const Groups_DeleteGroup = op({
  operationId: 'Groups_DeleteGroup',
  method: 'DELETE',
  path: '/api/rest/v2/groups/{groupName}',
  summary: 'Delete a group.',
  tag,
  role: 'Administrator',
  params: nameParams,
  statuses: statuses(404),
  cli: { group, action: 'delete' },
});

export const Groups_GetGroup = op({
  operationId: 'Groups_GetGroup',
  method: 'GET',
  path: '/api/rest/v2/groups/{groupName}',
  summary: 'Get a group by name.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: Group,
  statuses: statuses(400, 404),
  cli: { group, action: 'get' },
});

export const Groups_DeleteGroups = op({
  operationId: 'Groups_DeleteGroups',
  method: 'DELETE',
  path: '/api/rest/v2/groups/many',
  summary: 'Delete several groups by name; groups in use are kept. Succeeds when at least one was deleted.',
  tag,
  role: 'Administrator',
  body: NameList,
  response: BatchDeleteResult,
  statuses: statuses(400),
  cli: { group, action: 'delete-many' },
});

export const groupOperations = [
  Groups_GetAll,
  Groups_PostGroup,
  Groups_PutGroup,
  Groups_GetAllFilter,
  Groups_DeleteGroup,
  Groups_GetGroup,
  Groups_DeleteGroups,
] as const;
