import { z } from 'zod';
import { IsoDateTime } from './common.js';

const Domain = z.string().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters');

/** The single system setup object. */
export const SystemSetup = z.object({
  /** Origins (or domains) allowed to show the service's pages in an iframe. */
  iframeDomains: z.array(z.string()),
  /** Origins allowed to call the runtime endpoints from a browser (CORS), besides each client's own list. */
  corsDomains: z.array(z.string()),
  /** Lifetime of a login session, in seconds. */
  sessionLifetime: z.number().int(),
  updatedAt: IsoDateTime.nullable(),
});
export type SystemSetup = z.infer<typeof SystemSetup>;

/** Body of PUT /systemsetup; absent fields keep their value. */
export const SystemSetupInput = z.object({
  iframeDomains: z.array(Domain).optional(),
  corsDomains: z.array(Domain).optional(),
  sessionLifetime: z.number().int().min(60).max(31_536_000).optional(),
});
export type SystemSetupInput = z.infer<typeof SystemSetupInput>;

export const sessionDataKinds = ['sessions', 'codes', 'tokens'] as const;
export const SessionDataKind = z.enum(sessionDataKinds);
export type SessionDataKind = z.infer<typeof SessionDataKind>;

/** Body of POST /systemsetup/cleanupsession: which session data to remove (absent: every kind). */
export const SessionCleanUpInput = z.object({
  /** Remove only what has expired. */
  expiredOnly: z.boolean().optional(),
  /** Remove only what was created before this moment. */
  olderThan: IsoDateTime.optional(),
  kinds: z.array(SessionDataKind).optional(),
});
export type SessionCleanUpInput = z.infer<typeof SessionCleanUpInput>;
