import { z } from 'zod';
import {
  BatchDeleteResult,
  batchResult,
  ClaimDefinition,
  ClaimDefinitionInput,
  ClaimDefinitionInputList,
  ClaimTypeList,
  GuidList,
  PatchBody,
  SearchQuery,
} from '../schemas/index.js';
import { partialList, statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'ClaimDefinitions';
const group = 'claimdefinitions';
const sortable = [
  'claimType',
  'friendlyName',
  'avoidIssue',
  'avoidUpsize',
  'countSpecification',
  'claimValueSpace',
  'showAsColumnOnUserlist',
  'sensitive',
  'userEditable',
  'restrictedSubOrganizationView',
];
// `/claimdefinitions/{claimType}` and `/{id}` share one shape: a segment in GUID form is an id, anything else a
// claim type. Both take a plain string here; the server decides.
const claimTypeParams = z.object({ claimType: z.string().min(1).max(1024) });
const idParams = z.object({ id: z.string().min(1).max(1024) });
const ClaimDefinitionBatchResult = batchResult(ClaimDefinition);

export const ClaimDefinitions_GetAll = op({
  operationId: 'ClaimDefinitions_GetAll',
  method: 'GET',
  path: '/api/rest/v2/claimdefinitions',
  summary: 'List claim definitions.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable, defaultSort: 'claimType' },
  response: z.array(ClaimDefinition),
  statuses: statuses(),
  cli: { group, action: 'list' },
});

export const ClaimDefinitions_Post = op({
  operationId: 'ClaimDefinitions_Post',
  method: 'POST',
  path: '/api/rest/v2/claimdefinitions',
  summary: 'Create a claim definition (Free, Optional or Group kind).',
  tag,
  role: 'Administrator',
  body: ClaimDefinitionInput,
  response: ClaimDefinition,
  statuses: statuses(400, 409),
  cli: { group, action: 'create' },
});

export const ClaimDefinitions_Put = op({
  operationId: 'ClaimDefinitions_Put',
  method: 'PUT',
  path: '/api/rest/v2/claimdefinitions',
  summary: 'Replace a claim definition, found by its claimType.',
  tag,
  role: 'Administrator',
  body: ClaimDefinitionInput,
  response: ClaimDefinition,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'update' },
});

export const ClaimDefinitions_GetAllFilter = op({
  operationId: 'ClaimDefinitions_GetAllFilter',
  method: 'GET',
  path: '/api/rest/v2/claimdefinitions/.filter',
  summary: 'List claim definitions matching a SCIM filter.',
  tag,
  role: 'Observer',
  list: { kind: 'filter', sortable, defaultSort: 'claimType' },
  response: partialList(ClaimDefinition),
  statuses: statuses(400),
  cli: { group, action: 'filter' },
});

export const ClaimDefinitions_Search = op({
  operationId: 'ClaimDefinitions_Search',
  method: 'POST',
  path: '/api/rest/v2/claimdefinitions/.search',
  summary: 'Search claim definitions with a query object; an absent query returns all.',
  tag,
  role: 'Administrator',
  body: SearchQuery.optional(),
  response: partialList(ClaimDefinition),
  statuses: statuses(400),
  cli: { group, action: 'search' },
});

export const ClaimDefinitions_DeleteByClaimType = op({
  operationId: 'ClaimDefinitions_DeleteByClaimType',
  method: 'DELETE',
  path: '/api/rest/v2/claimdefinitions/{claimType}',
  summary: 'Delete a claim definition by claimType (success also when it does not exist).',
  tag,
  role: 'Administrator',
  params: claimTypeParams,
  statuses: statuses(400),
  cli: { group, action: 'delete' },
});

export const ClaimDefinitions_GetByClaimType = op({
  operationId: 'ClaimDefinitions_GetByClaimType',
  method: 'GET',
  path: '/api/rest/v2/claimdefinitions/{claimType}',
  summary: 'Get a claim definition by claimType.',
  tag,
  role: 'Observer',
  params: claimTypeParams,
  response: ClaimDefinition,
  statuses: statuses(404),
  cli: { group, action: 'get' },
});

export const ClaimDefinitions_Patch = op({
  operationId: 'ClaimDefinitions_Patch',
  method: 'PATCH',
  path: '/api/rest/v2/claimdefinitions/{claimType}',
  summary: 'Change fields of a claim definition with a list of operations.',
  tag,
  role: 'Administrator',
  params: claimTypeParams,
  body: PatchBody,
  response: ClaimDefinition,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'patch' },
});

export const ClaimDefinitions_DeleteById = op({
  operationId: 'ClaimDefinitions_DeleteById',
  method: 'DELETE',
  path: '/api/rest/v2/claimdefinitions/{id}',
  summary: 'Delete a claim definition by id (success also when it does not exist).',
  tag,
  role: 'Administrator',
  params: idParams,
  statuses: statuses(),
  cli: { group, action: 'delete-by-id' },
});

export const ClaimDefinitions_GetById = op({
  operationId: 'ClaimDefinitions_GetById',
  method: 'GET',
  path: '/api/rest/v2/claimdefinitions/{id}',
  summary: 'Get a claim definition by id.',
  tag,
  role: 'Observer',
  params: idParams,
  response: ClaimDefinition,
  statuses: statuses(404),
  cli: { group, action: 'get-by-id' },
});

export const ClaimDefinitions_DeleteByClaimTypes = op({
  operationId: 'ClaimDefinitions_DeleteByClaimTypes',
  method: 'DELETE',
  path: '/api/rest/v2/claimdefinitions/claimtypes',
  summary: 'Delete several claim definitions by claimType.',
  tag,
  role: 'Administrator',
  body: ClaimTypeList,
  response: BatchDeleteResult,
  statuses: statuses(),
  cli: { group, action: 'delete-many' },
});

export const ClaimDefinitions_DeleteByIds = op({
  operationId: 'ClaimDefinitions_DeleteByIds',
  method: 'DELETE',
  path: '/api/rest/v2/claimdefinitions/ids',
  summary: 'Delete several claim definitions by id.',
  tag,
  role: 'Administrator',
  body: GuidList,
  response: BatchDeleteResult,
  statuses: statuses(),
  cli: { group, action: 'delete-many-by-id' },
});

export const ClaimDefinitions_PostMany = op({
  operationId: 'ClaimDefinitions_PostMany',
  method: 'POST',
  path: '/api/rest/v2/claimdefinitions/many',
  summary: 'Create several claim definitions; succeeds when at least one was created.',
  tag,
  role: 'Administrator',
  body: ClaimDefinitionInputList,
  response: ClaimDefinitionBatchResult,
  statuses: statuses(400),
  cli: { group, action: 'create-many' },
});

export const ClaimDefinitions_PutMany = op({
  operationId: 'ClaimDefinitions_PutMany',
  method: 'PUT',
  path: '/api/rest/v2/claimdefinitions/many',
  summary: 'Replace several claim definitions; succeeds when at least one was updated.',
  tag,
  role: 'Administrator',
  body: ClaimDefinitionInputList,
  response: ClaimDefinitionBatchResult,
  statuses: statuses(400),
  cli: { group, action: 'update-many' },
});

export const claimDefinitionOperations = [
  ClaimDefinitions_GetAll,
  ClaimDefinitions_Post,
  ClaimDefinitions_Put,
  ClaimDefinitions_GetAllFilter,
  ClaimDefinitions_Search,
  ClaimDefinitions_DeleteByClaimType,
  ClaimDefinitions_GetByClaimType,
  ClaimDefinitions_Patch,
  ClaimDefinitions_DeleteById,
  ClaimDefinitions_GetById,
  ClaimDefinitions_DeleteByClaimTypes,
  ClaimDefinitions_DeleteByIds,
  ClaimDefinitions_PostMany,
  ClaimDefinitions_PutMany,
] as const;
