import {
  Connections_DeleteClaimTransformation,
  Connections_DeleteClaimTransformations,
  Connections_DeleteConnection,
  Connections_GetAll,
  Connections_GetAllFilter,
  Connections_GetCertificates,
  Connections_GetConnection,
  Connections_PatchConnection,
  Connections_PostConnection,
  Connections_PutCertificates,
  Connections_PutClaimTransformation,
  Connections_PutClaimTransformations,
  Connections_PutConnection,
  Connections_ResetConsent,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const connectionHandlers = [
  handle(Connections_GetAll, ({ list, services }) => services.connections.list(list)),
  handle(Connections_GetAllFilter, ({ list, services }) => services.connections.list(list)),
  handle(Connections_GetConnection, ({ params, services }) => services.connections.get(params.connectionName)),
  handle(Connections_PostConnection, ({ body, services, by }) => services.connections.create(body, by)),
  handle(Connections_PutConnection, ({ body, services, by }) => services.connections.update(body, by)),
  handle(Connections_PatchConnection, ({ params, body, services, by }) =>
    services.connections.patch(params.connectionName, body, by),
  ),
  handle(Connections_DeleteConnection, ({ params, services, by }) =>
    services.connections.delete(params.connectionName, by),
  ),
  handle(Connections_ResetConsent, ({ params, services, by }) =>
    services.connections.resetConsent(params.connectionName, by),
  ),
  handle(Connections_PutCertificates, ({ body, services, by }) => services.connections.putCertificates(body, by)),
  handle(Connections_GetCertificates, ({ params, services }) =>
    services.connections.getCertificates(params.connectionName),
  ),
  handle(Connections_PutClaimTransformation, ({ body, services, by }) =>
    services.connections.addTransformations(body.connectionName, [body.claimTransformationName], by),
  ),
  handle(Connections_DeleteClaimTransformation, ({ body, services, by }) =>
    services.connections.removeTransformations(body.connectionName, [body.claimTransformationName], by),
  ),
  handle(Connections_PutClaimTransformations, ({ body, services, by }) =>
    services.connections.addTransformations(body.connectionName, body.claimTransformationNames, by),
  ),
  handle(Connections_DeleteClaimTransformations, ({ body, services, by }) =>
    services.connections.removeTransformations(body.connectionName, body.claimTransformationNames, by),
  ),
];
