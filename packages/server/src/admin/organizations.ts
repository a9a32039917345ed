import {
  Organizations_DeleteOrganization,
  Organizations_DeleteOrganizations,
  Organizations_GetAll,
  Organizations_GetAllFilter,
  Organizations_GetChildOrganizations,
  Organizations_GetOrganization,
  Organizations_PostOrganization,
  Organizations_PutOrganization,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const organizationHandlers = [
  handle(Organizations_GetAll, ({ list, services }) => services.organizations.list(list)),
  handle(Organizations_GetAllFilter, ({ list, services }) => services.organizations.list(list)),
  handle(Organizations_GetOrganization, ({ params, services }) => services.organizations.get(params.organizationName)),
  handle(Organizations_GetChildOrganizations, ({ params, services }) =>
    services.organizations.children(params.organizationName),
  ),
  handle(Organizations_PostOrganization, ({ body, services, by }) => services.organizations.create(body, by)),
  handle(Organizations_PutOrganization, ({ body, services, by }) => services.organizations.update(body, by)),
  handle(Organizations_DeleteOrganization, ({ params, services, by }) =>
    services.organizations.delete(params.organizationName, by),
  ),
  handle(Organizations_DeleteOrganizations, ({ body, services, by }) => services.organizations.deleteMany(body, by)),
];
