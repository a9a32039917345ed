import {
  Certificates_Delete,
  Certificates_DeleteMany,
  Certificates_GetAll,
  Certificates_GetCertificate,
  Certificates_PostCertificate,
  Certificates_PostMany,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const certificateHandlers = [
  handle(Certificates_GetAll, ({ query, list, services }) => services.certificates.list(query.storeName, list)),
  handle(Certificates_GetCertificate, ({ params, query, services }) =>
    services.certificates.get(params.thumbprint, query.storeName),
  ),
  handle(Certificates_PostCertificate, ({ body, query, services, by }) =>
    services.certificates.create(body, query.storeName, by),
  ),
  handle(Certificates_PostMany, ({ body, query, services, by }) => services.certificates.createMany(body, query, by)),
  handle(Certificates_Delete, ({ params, query, services, by }) =>
    services.certificates.delete(params.thumbprint, query, by),
  ),
  handle(Certificates_DeleteMany, ({ body, query, services, by }) => services.certificates.deleteMany(body, query, by)),
];
