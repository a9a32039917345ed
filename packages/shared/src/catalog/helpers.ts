import { z } from 'zod';

/** Statuses of an operation: 200, the given ones, and 401 and 403 (every operation can answer those), sorted. */
export function statuses(...codes: number[]): number[] {
  return [...new Set([200, ...codes, 401, 403])].sort((a, b) => a - b);
}

/** As `statuses`, for the rows that list no 403. */
export function statusesWithout403(...codes: number[]): number[] {
  return statuses(...codes).filter((code) => code !== 403);
}

/** The answer of a filter or search operation: objects, trimmed to the requested `attributes`. */
export function partialList<T extends z.ZodObject>(item: T) {
  return z.array(item.partial());
}
