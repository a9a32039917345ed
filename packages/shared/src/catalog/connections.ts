import { z } from 'zod';
import {
  Certificate,
  Connection,
  ConnectionCertificatesInput,
  ConnectionInput,
  ConnectionTransformationInput,
  ConnectionTransformationsInput,
  Name,
  PatchBody,
} from '../schemas/index.js';
import { partialList, statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'Connections';
const group = 'connections';
const sortable = ['name', 'enabled', 'accessOrganizationName'];
const nameParams = z.object({ connectionName: Name });

export const Connections_GetAll = op({
  operationId: 'Connections_GetAll',
  method: 'GET',
  path: '/api/rest/v2/connections',
  summary: 'List connections.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable, defaultSort: 'name' },
  response: z.array(Connection),
  statuses: statuses(),
  cli: { group, action: 'list' },
});

export const Connections_PostConnection = op({
  operationId: 'Connections_PostConnection',
  method: 'POST',
  path: '/api/rest/v2/connections',
  summary: 'Create a connection; an OAuth20 connection without clientSecret gets a generated one, shown once.',
  tag,
  role: 'Administrator',
  body: ConnectionInput,
  response: Connection,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'create' },
});

export const Connections_PutConnection = op({
  operationId: 'Connections_PutConnection',
  method: 'PUT',
  path: '/api/rest/v2/connections',
  summary: 'Update a connection; with a valid metadataReference only the configuration changes.',
  tag,
  role: 'Administrator',
  body: ConnectionInput,
  response: Connection,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'update' },
});

export const Connections_GetAllFilter = op({
  operationId: 'Connections_GetAllFilter',
  method: 'GET',
  path: '/api/rest/v2/connections/.filter',
  summary: 'List connections matching a SCIM filter.',
  tag,
  role: 'Observer',
  list: { kind: 'filter', sortable, defaultSort: 'name' },
  response: partialList(Connection),
  statuses: statuses(400),
  cli: { group, action: 'filter' },
});

export const Connections_ResetConsent = op({
  operationId: 'Connections_ResetConsent',
  method: 'PUT',
  path: '/api/rest/v2/connections/resetconsent/{connectionName}',
  summary: 'Reset every consent given to a protocol connection; 404 when the connection does not exist.',
  tag,
  role: 'Administrator',
  params: nameParams,
  statuses: statuses(404),
  cli: { group, action: 'reset-consent' },
});

export const Connections_DeleteConnection = op({
  operationId: 'Connections_DeleteConnection',
  method: 'DELETE',
  path: '/api/rest/v2/connections/{connectionName}',
  summary:
    'Delete a connection; 404 when it does not exist, 409 when another connection depends on it or it is built in.',
  tag,
  role: 'Administrator',
  params: nameParams,
  statuses: statuses(404, 409),
  cli: { group, action: 'delete' },
});

export const Connections_GetConnection = op({
  operationId: 'Connections_GetConnection',
  method: 'GET',
  path: '/api/rest/v2/connections/{connectionName}',
  summary: 'Get a connection by name.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: Connection,
  statuses: statuses(404),
  cli: { group, action: 'get' },
});

export const Connections_PatchConnection = op({
  operationId: 'Connections_PatchConnection',
  method: 'PATCH',
  path: '/api/rest/v2/connections/{connectionName}',
  summary: 'Change fields of a WS-Federation or SAML connection with a list of operations.',
  tag,
  role: 'Administrator',
  params: nameParams,
  body: PatchBody,
  response: Connection,
  statuses: statuses(400, 404),
  cli: { group, action: 'patch' },
});

export const Connections_PutCertificates = op({
  operationId: 'Connections_PutCertificates',
  method: 'PUT',
  path: '/api/rest/v2/connections/certificate',
  summary: 'Set the certificates applied to a connection.',
  tag,
  role: 'Administrator',
  body: ConnectionCertificatesInput,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'set-certificates' },
});

export const Connections_GetCertificates = op({
  operationId: 'Connections_GetCertificates',
  method: 'GET',
  path: '/api/rest/v2/connections/certificate/{connectionName}',
  summary: 'List the certificates applied to a connection.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: z.array(Certificate),
  statuses: statuses(404),
  cli: { group, action: 'certificates' },
});

export const Connections_PutClaimTransformation = op({
  operationId: 'Connections_PutClaimTransformation',
  method: 'PUT',
  path: '/api/rest/v2/connections/transformation',
  summary: 'Apply a claim transformation to a connection.',
  tag,
  role: 'Administrator',
  body: ConnectionTransformationInput,
  response: Connection,
  statuses: statuses(400, 404),
  cli: { group, action: 'add-transformation' },
});

export const Connections_DeleteClaimTransformation = op({
  operationId: 'Connections_DeleteClaimTransformation',
  method: 'DELETE',
  path: '/api/rest/v2/connections/transformation',
  summary: 'Remove a claim transformation from a connection.',
  tag,
  role: 'Administrator',
  body: ConnectionTransformationInput,
  response: Connection,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'remove-transformation' },
});

export const Connections_PutClaimTransformations = op({
  operationId: 'Connections_PutClaimTransformations',
  method: 'PUT',
  path: '/api/rest/v2/connections/transformations',
  summary: 'Apply several claim transformations to a connection.',
  tag,
  role: 'Administrator',
  body: ConnectionTransformationsInput,
  response: Connection,
  statuses: statuses(400, 404),
  cli: { group, action: 'add-transformations' },
});

export const Connections_DeleteClaimTransformations = op({
  operationId: 'Connections_DeleteClaimTransformations',
  method: 'DELETE',
  path: '/api/rest/v2/connections/transformations',
  summary: 'Remove several claim transformations from a connection.',
  tag,
  role: 'Administrator',
  body: ConnectionTransformationsInput,
  response: Connection,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'remove-transformations' },
});

export const connectionOperations = [
  Connections_GetAll,
  Connections_PostConnection,
  Connections_PutConnection,
  Connections_GetAllFilter,
  Connections_ResetConsent,
  Connections_DeleteConnection,
  Connections_GetConnection,
  Connections_PatchConnection,
  Connections_PutCertificates,
  Connections_GetCertificates,
  Connections_PutClaimTransformation,
  Connections_DeleteClaimTransformation,
  Connections_PutClaimTransformations,
  Connections_DeleteClaimTransformations,
] as const;
