import { type ErrorCode, errorCodes } from '@idsvc/shared';

/** Error codes of the admin API and their HTTP statuses (DESIGN 1.4), as the shared contract fixes them. */
export const apiErrorStatus = errorCodes;

export type ApiErrorCode = ErrorCode;

/** The one error type of the admin API; the error handler renders it as the contract's error body. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly details: unknown[] | undefined;

  constructor(code: ApiErrorCode, message: string, details?: unknown[]) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = details;
  }

  get status(): (typeof apiErrorStatus)[ApiErrorCode] {
    return apiErrorStatus[this.code];
  }
}

export const badRequest = (message: string, details?: unknown[]) => new ApiError('invalid_request', message, details);
export const notFound = (message: string, details?: unknown[]) => new ApiError('not_found', message, details);
export const conflict = (message: string, details?: unknown[]) => new ApiError('conflict', message, details);
export const unauthorized = (message = 'a valid bearer token is required') => new ApiError('unauthorized', message);
export const forbidden = (message = 'the token does not grant this operation') => new ApiError('forbidden', message);
