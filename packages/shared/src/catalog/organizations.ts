import { z } from 'zod';
import { BatchDeleteResult, Name, NameList, Organization, OrganizationInput } from '../schemas/index.js';
import { partialList, statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'Organizations';
const group = 'organizations';
const sortable = ['name', 'accessOrganizationName'];
const nameParams = z.object({ organizationName: Name });

export const Organizations_GetAll = op({
  operationId: 'Organizations_GetAll',
  method: 'GET',
  path: '/api/rest/v2/organizations',
  summary: 'List organizations.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable, defaultSort: 'name' },
  response: z.array(Organization),
  statuses: statuses(400),
  cli: { group, action: 'list' },
});

export const Organizations_PostOrganization = op({
  operationId: 'Organizations_PostOrganization',
  method: 'POST',
  path: '/api/rest/v2/organizations',
  summary: 'Create an organization (under Root unless parentName says otherwise).',
  tag,
  role: 'Administrator',
  body: OrganizationInput,
  response: Organization,
  statuses: statuses(400, 409),
  cli: { group, action: 'create' },
});

export const Organizations_PutOrganization = op({
  operationId: 'Organizations_PutOrganization',
  method: 'PUT',
  path: '/api/rest/v2/organizations',
  summary: 'Update an organization, found by name.',
  tag,
  role: 'Administrator',
  body: OrganizationInput,
  response: Organization,
  statuses: statuses(400, 404),
  cli: { group, action: 'update' },
});

export const Organizations_GetAllFilter = op({
  operationId: 'Organizations_GetAllFilter',
  method: 'GET',
  path: '/api/rest/v2/organizations/.filter',
  summary: 'List organizations matching a SCIM filter.',
  tag,
  role: 'Observer',
  list: { kind: 'filter', sortable, defaultSort: 'name' },
  response: partialList(Organization),
  statuses: statuses(400),
  cli: { group, action: 'filter' },
});

export const Organizations_DeleteOrganization = op({
  operationId: 'Organizations_DeleteOrganization',
  method: 'DELETE',
  path: '/api/rest/v2/organizations/{organizationName}',
  summary: 'Delete an organization.',
  tag,
  role: 'Administrator',
  params: nameParams,
  statuses: statuses(404, 409),
  cli: { group, action: 'delete' },
});

export const Organizations_GetOrganization = op({
  operationId: 'Organizations_GetOrganization',
  method: 'GET',
  path: '/api/rest/v2/organizations/{organizationName}',
  summary: 'Get an organization by name.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: Organization,
  statuses: statuses(400, 404),
  cli: { group, action: 'get' },
});

export const Organizations_GetChildOrganizations = op({
  operationId: 'Organizations_GetChildOrganizations',
  method: 'GET',
  path: '/api/rest/v2/organizations/{organizationName}/childs',
  summary: 'List the child organizations of an organization.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: z.array(Organization),
  statuses: statuses(400, 404),
  cli: { group, action: 'children' },
});

export const Organizations_DeleteOrganizations = op({
  operationId: 'Organizations_DeleteOrganizations',
  method: 'DELETE',
  path: '/api/rest/v2/organizations/many',
  summary: 'Delete several organizations by name; those in use are kept. Succeeds when at least one was deleted.',
  tag,
  role: 'Administrator',
  body: NameList,
  response: BatchDeleteResult,
  statuses: statuses(400),
  cli: { group, action: 'delete-many' },
});

export const organizationOperations = [
  Organizations_GetAll,
  Organizations_PostOrganization,
  Organizations_PutOrganization,
  Organizations_GetAllFilter,
  Organizations_DeleteOrganization,
  Organizations_GetOrganization,
  Organizations_GetChildOrganizations,
  Organizations_DeleteOrganizations,
] as const;
