import { z } from 'zod';

/** Error codes of the admin API and the HTTP status each answers with. */
export const errorCodes = {
  invalid_request: 400,
  invalid_filter: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  server_error: 500,
  not_implemented: 501,
} as const;
export type ErrorCode = keyof typeof errorCodes;
export type ErrorStatus = (typeof errorCodes)[ErrorCode];

const errorCodeNames = Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]];

/** Body of every admin API error. `details` lists per-field or per-item problems. */
export const ErrorBody = z.object({
  error: z.enum(errorCodeNames),
  message: z.string(),
  details: z.array(z.unknown()).optional(),
  requestId: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
