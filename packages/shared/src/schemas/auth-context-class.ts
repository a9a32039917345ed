import { z } from 'zod';
import { Guid } from './common.js';

/** An authentication context method class (for example `urn:oasis:names:tc:SAML:2.0:ac:classes:Password`). */
export const AuthenticationContextMethodClass = z.object({
  id: Guid,
  methodClass: z.string(),
  /** Orders classes by strength: a higher value is stronger. */
  comparableValue: z.number().int(),
});
export type AuthenticationContextMethodClass = z.infer<typeof AuthenticationContextMethodClass>;

export const AuthenticationContextMethodClassInput = z.object({
  id: Guid.optional(),
  methodClass: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  comparableValue: z.number().int().min(0).max(1_000_000),
});
export type AuthenticationContextMethodClassInput = z.infer<typeof AuthenticationContextMethodClassInput>;
