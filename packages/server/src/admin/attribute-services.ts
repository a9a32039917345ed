import {
  AttributeServices_DeleteConnection,
  AttributeServices_GetAll,
  AttributeServices_GetAllFilter,
  AttributeServices_GetConnection,
  AttributeServices_PostConnection,
  AttributeServices_PutConnection,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const attributeServiceHandlers = [
  handle(AttributeServices_GetAll, ({ list, services }) => services.attributeServices.list(list)),
  handle(AttributeServices_GetAllFilter, ({ list, services }) => services.attributeServices.list(list)),
  handle(AttributeServices_GetConnection, ({ params, services }) =>
    services.attributeServices.get(params.attributeServiceName),
  ),
  handle(AttributeServices_PostConnection, ({ body, services, by }) => services.attributeServices.create(body, by)),
  handle(AttributeServices_PutConnection, ({ body, services, by }) => services.attributeServices.update(body, by)),
  // Spec rule 1: deleting a missing attribute service succeeds.
  handle(AttributeServices_DeleteConnection, ({ params, services, by }) =>
    services.attributeServices.delete(params.attributeServiceName, by, { missingOk: true }),
  ),
];
