import { z } from 'zod';
import {
  Certificate,
  CertificateData,
  CertificateDataList,
  ReadStoreName,
  ThumbprintList,
  UploadCertificateMode,
  WritableStoreName,
} from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'Certificates';
const group = 'certificates';
const thumbprintParams = z.object({ thumbprint: z.string().min(1).max(256) });
const readQuery = z.object({ storeName: ReadStoreName.default('DatabaseStore') });
const writeQuery = z.object({ storeName: WritableStoreName.default('DatabaseStore') });
const deleteQuery = writeQuery.extend({ forceDeleteInUse: z.stringbool().default(false) });

export const Certificates_GetAll = op({
  operationId: 'Certificates_GetAll',
  method: 'GET',
  path: '/api/rest/v2/certificates',
  summary: 'List the certificates of a store (default DatabaseStore).',
  tag,
  role: 'Observer',
  query: readQuery,
  list: { kind: 'list', sortable: ['thumbprint', 'subject', 'isInUse', 'validTo'], defaultSort: 'thumbprint' },
  response: z.array(Certificate),
  statuses: statuses(),
  cli: { group, action: 'list' },
});

export const Certificates_PostCertificate = op({
  operationId: 'Certificates_PostCertificate',
  method: 'POST',
  path: '/api/rest/v2/certificates',
  summary: 'Upload a certificate (base64 DER or PEM) into a store.',
  tag,
  role: 'Administrator',
  query: writeQuery,
  body: CertificateData,
  response: Certificate,
  statuses: statuses(400, 409),
  cli: { group, action: 'add' },
});

export const Certificates_GetCertificate = op({
  operationId: 'Certificates_GetCertificate',
  method: 'GET',
  path: '/api/rest/v2/certificates/{thumbprint}',
  summary: 'Get a certificate by thumbprint.',
  tag,
  role: 'Observer',
  params: thumbprintParams,
  query: readQuery,
  response: Certificate,
  statuses: statuses(404),
  cli: { group, action: 'get' },
});

export const Certificates_Delete = op({
  operationId: 'Certificates_Delete',
  method: 'DELETE',
  path: '/api/rest/v2/certificates/{thumbprint}',
  summary: 'Delete a certificate; one in use only with forceDeleteInUse=true.',
  tag,
  role: 'Administrator',
  params: thumbprintParams,
  query: deleteQuery,
  statuses: statuses(404, 409),
  cli: { group, action: 'delete' },
});

export const Certificates_DeleteMany = op({
  operationId: 'Certificates_DeleteMany',
  method: 'DELETE',
  path: '/api/rest/v2/certificates/many',
  summary: 'Delete several certificates by thumbprint; fails if any is missing or in use.',
  tag,
  role: 'Administrator',
  query: deleteQuery,
  body: ThumbprintList,
  statuses: statuses(404, 409),
  cli: { group, action: 'delete-many' },
});

export const Certificates_PostMany = op({
  operationId: 'Certificates_PostMany',
  method: 'POST',
  path: '/api/rest/v2/certificates/many',
  summary: 'Upload several certificates (FromFile), or copy them by thumbprint into DatabaseStore (FromWindowStore).',
  tag,
  role: 'Administrator',
  query: z.object({
    uploadCertificateMode: UploadCertificateMode.default('FromFile'),
    /** Absent means DatabaseStore; only with FromFile (FromWindowStore always copies into DatabaseStore). */
    storeName: WritableStoreName.optional(),
  }),
  body: CertificateDataList,
  response: z.array(Certificate),
  statuses: statuses(400, 409),
  cli: { group, action: 'add-many' },
});

export const certificateOperations = [
  Certificates_GetAll,
  Certificates_PostCertificate,
  Certificates_GetCertificate,
  Certificates_Delete,
  Certificates_DeleteMany,
  Certificates_PostMany,
] as const;
