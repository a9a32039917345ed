import { z } from 'zod';
import { IsoDateTime } from './common.js';

/** Where a certificate is kept: the database, the operating system's trusted roots, or a folder under the data dir. */
export const certificateStores = ['CurrentUser', 'LocalMachine', 'DatabaseStore'] as const;
export const CertificateStore = z.enum(certificateStores);
export type CertificateStore = z.infer<typeof CertificateStore>;

/** storeName of read operations: any store, or `All`. */
export const ReadStoreName = z.enum([...certificateStores, 'All'], {
  error: 'must be CurrentUser, LocalMachine, DatabaseStore or All',
});
export type ReadStoreName = z.infer<typeof ReadStoreName>;

/** storeName of write operations: the stores idsvc can write to (LocalMachine is read-only). */
export const WritableStoreName = z.enum(['DatabaseStore', 'CurrentUser'], {
  error: 'must be DatabaseStore or CurrentUser (LocalMachine is read-only)',
});
export type WritableStoreName = z.infer<typeof WritableStoreName>;

export const uploadCertificateModes = ['FromFile', 'FromWindowStore'] as const;
export const UploadCertificateMode = z.enum(uploadCertificateModes);
export type UploadCertificateMode = z.infer<typeof UploadCertificateMode>;

/**
 * A SHA-1 thumbprint: 40 hexadecimal digits, in either case, optionally in pairs separated by `:` or spaces as
 * certificate tools print them (returned in upper case without separators).
 */
export const Thumbprint = z
  .string()
  .regex(/^\s*(?:[0-9A-Fa-f]{40}|(?:[0-9A-Fa-f]{2}[: ]){19}[0-9A-Fa-f]{2})\s*$/, 'must be 40 hexadecimal digits');
export type Thumbprint = z.infer<typeof Thumbprint>;

export const Certificate = z.object({
  thumbprint: z.string(),
  subject: z.string(),
  issuer: z.string(),
  serialNumber: z.string(),
  validFrom: IsoDateTime,
  validTo: IsoDateTime,
  isInUse: z.boolean(),
  storeName: CertificateStore,
});
export type Certificate = z.infer<typeof Certificate>;

/** An uploaded certificate: base64 of the DER encoding (PEM is accepted too). */
export const CertificateData = z
  .string()
  .min(1, 'must not be empty')
  .max(1_048_576, 'must be at most 1 MiB')
  .describe('base64 of a DER X.509 certificate, or PEM');
export type CertificateData = z.infer<typeof CertificateData>;

export const CertificateDataList = z.array(CertificateData).min(1, 'must hold at least one certificate');
export type CertificateDataList = z.infer<typeof CertificateDataList>;

export const ThumbprintList = z.array(Thumbprint).min(1, 'must hold at least one thumbprint');
export type ThumbprintList = z.infer<typeof ThumbprintList>;
