import { FOREIGN_KEY_VIOLATION, sqlState, UNIQUE_VIOLATION } from '../db/client.js';
import { ApiError, conflict } from '../http/api-error.js';

/** Runs a write and turns a unique violation into a 409 with the given message. */
export async function uniqueOr409<T>(write: () => Promise<T>, message: string, details?: unknown[]): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === UNIQUE_VIOLATION) throw conflict(message, details);
    if (sqlState(error) === FOREIGN_KEY_VIOLATION)
      throw new ApiError('conflict', `${message} (a referenced object changed)`, details);
    throw error;
  }
}

export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === UNIQUE_VIOLATION;
}
