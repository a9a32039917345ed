import { z } from 'zod';
import { ClaimSet, ClaimSetInput, Name } from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'ClaimSets';
const group = 'claimsets';
// `/claimsets/{claimSetName}` and `/{id}` share one shape: a segment in GUID form is an id, anything else a name.
// Both take a plain string here; the server decides.
const nameParams = z.object({ claimSetName: Name });
const idParams = z.object({ id: Name });

export const ClaimSets_GetAll = op({
  operationId: 'ClaimSets_GetAll',
  method: 'GET',
  path: '/api/rest/v2/claimsets',
  summary: 'List claim sets.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable: ['name', 'id'], defaultSort: 'name' },
  response: z.array(ClaimSet),
  statuses: statuses(),
  cli: { group, action: 'list' },
});

export const ClaimSets_PostClaimSet = op({
  operationId: 'ClaimSets_PostClaimSet',
  method: 'POST',
  path: '/api/rest/v2/claimsets',
  summary: 'Create a claim set.',
  tag,
  role: 'Administrator',
  body: ClaimSetInput,
  response: ClaimSet,
  statuses: statuses(400, 409),
  cli: { group, action: 'create' },
});

export const ClaimSets_PutClaimSet = op({
  operationId: 'ClaimSets_PutClaimSet',
  method: 'PUT',
  path: '/api/rest/v2/claimsets',
  summary: 'Update a claim set, found by id when given, else by name.',
  tag,
  role: 'Administrator',
  body: ClaimSetInput,
  response: ClaimSet,
  statuses: statuses(400, 404),
  cli: { group, action: 'update' },
});

export const ClaimSets_GetByName = op({
  operationId: 'ClaimSets_GetByName',
  method: 'GET',
  path: '/api/rest/v2/claimsets/{claimSetName}',
  summary: 'Get a claim set by name.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: ClaimSet,
  statuses: statuses(404),
  cli: { group, action: 'get' },
});

export const ClaimSets_DeleteByName = op({
  operationId: 'ClaimSets_DeleteByName',
  method: 'DELETE',
  path: '/api/rest/v2/claimsets/{claimSetName}',
  summary: 'Delete a claim set by name.',
  tag,
  role: 'Administrator',
  params: nameParams,
  statuses: statuses(404),
  cli: { group, action: 'delete' },
});

export const ClaimSets_GetById = op({
  operationId: 'ClaimSets_GetById',
  method: 'GET',
  path: '/api/rest/v2/claimsets/{id}',
  summary: 'Get a claim set by id.',
  tag,
  role: 'Observer',
  params: idParams,
  response: ClaimSet,
  statuses: statuses(404),
  cli: { group, action: 'get-by-id' },
});

export const ClaimSets_DeleteById = op({
  operationId: 'ClaimSets_DeleteById',
  method: 'DELETE',
  path: '/api/rest/v2/claimsets/{id}',
  summary: 'Delete a claim set by id.',
  tag,
  role: 'Administrator',
  params: idParams,
  statuses: statuses(404),
  cli: { group, action: 'delete-by-id' },
});

export const claimSetOperations = [
  ClaimSets_GetAll,
  ClaimSets_PostClaimSet,
  ClaimSets_PutClaimSet,
  ClaimSets_GetByName,
  ClaimSets_DeleteByName,
  ClaimSets_GetById,
  ClaimSets_DeleteById,
] as const;
