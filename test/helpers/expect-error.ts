import { expect } from 'vitest';
import type { ApiResponse } from './api.js';

const errorKeys = ['error', 'message', 'details', 'requestId'];

/**
 * Asserts an admin API error: the status, and the body `{ error: code, message, details?, requestId }` with a
 * non-empty message and request id and no other fields.
 */
export function expectError(response: ApiResponse<unknown>, status: number, code: string): void {
  const body = response.body as Record<string, unknown>;
  expect({ status: response.status, error: body?.error }, JSON.stringify(response.body)).toEqual({
    status,
    error: code,
  });
  expect(body).toMatchObject({ message: expect.any(String), requestId: expect.any(String) });
  expect(String(body.message).length).toBeGreaterThan(0);
  expect(String(body.requestId).length).toBeGreaterThan(0);
  expect(Object.keys(body).filter((key) => !errorKeys.includes(key))).toEqual([]);
  if (body.details !== undefined) expect(Array.isArray(body.details)).toBe(true);
}
