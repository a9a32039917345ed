import { z } from 'zod';
import { IsoDateTime } from './common.js';

/**
 * An error the server answered, as recorded under its correlation id (the `requestId` of the error body and the
 * `X-Request-Id` header). Only what the caller was told is kept: never a stack trace or the query string.
 */
export const CorrelationError = z.object({
  correlationId: z.string(),
  occurredAt: IsoDateTime,
  method: z.string(),
  /** The request path, without its query string. */
  path: z.string(),
  /** The admin operation the path names, when it names one. */
  operationId: z.string().nullable(),
  status: z.number().int(),
  /** The error code of the body (`not_found`, `server_error`…). */
  error: z.string(),
  message: z.string(),
});
export type CorrelationError = z.infer<typeof CorrelationError>;
