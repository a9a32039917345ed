import { z } from 'zod';
import { IsoDateTime } from './common.js';

/**
 * The origin of an address such as `https://app.example.com` or `http://localhost:3000`, in canonical form
 * (lower-case host, default port dropped); undefined when the text is not exactly an origin (no path, query,
 * fragment, credentials or wildcard).
 */
export function canonicalOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]+\/?$/i.test(text.trim())) return undefined;
  if (!/^(([a-z0-9-]+\.)*[a-z0-9-]+|\[[0-9a-f:.]+\])$/.test(url.hostname)) return undefined;
  return url.origin;
}

/** An origin (scheme, host and optional port), stored in canonical form. */
export const Origin = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => canonicalOrigin(value) !== undefined, {
    error: 'must be an origin such as https://app.example.com (scheme, host and optional port only)',
  })
  .transform((value) => canonicalOrigin(value) as string);

const OriginList = z
  .array(Origin)
  .max(1000, 'must list at most 1000 origins')
  .transform((list) => [...new Set(list)]);

/** The single system setup object. */
export const SystemSetup = z.object({
  /** Origins allowed to show the service's pages in an iframe. */
  iframeDomains: z.array(z.string()),
  /** Origins allowed to call the runtime endpoints from a browser (CORS), besides each client's own list. */
  corsDomains: z.array(z.string()),
  /** Lifetime of a login session, in seconds. */
  sessionLifetime: z.number().int(),
  updatedAt: IsoDateTime.nullable(),
});
export type SystemSetup = z.infer<typeof SystemSetup>;

/** Body of PUT /systemsetup; absent fields keep their value. Origins are stored in canonical form, once each. */
export const SystemSetupInput = z.object({
  iframeDomains: OriginList.optional(),
  corsDomains: OriginList.optional(),
  sessionLifetime: z.number().int().min(60).max(31_536_000).optional(),
});
export type SystemSetupInput = z.infer<typeof SystemSetupInput>;

/** Kinds of session data, one per table of runtime state. */
export const sessionDataKinds = [
  'sessions',
  'authorizationCodes',
  'deviceCodes',
  'refreshTokens',
  'revokedAccessTokens',
  'actionTokens',
] as const;
export const SessionDataKind = z.enum(sessionDataKinds, {
  error: `must be one of ${sessionDataKinds.join(', ')}`,
});
export type SessionDataKind = z.infer<typeof SessionDataKind>;

/**
 * Body of POST /systemsetup/cleanupsession: which session data to remove. Absent `kinds`: every kind.
 * `expiredOnly` (default true) keeps what is still valid; revoked access tokens are only ever removed once expired,
 * since removing a revocation would make its token valid again.
 */
export const SessionCleanUpInput = z.strictObject({
  kinds: z.array(SessionDataKind).min(1, 'must list at least one kind').optional(),
  /** Remove only what has expired, ended, been used or been revoked (default true). */
  expiredOnly: z.boolean().default(true),
  /** Remove only what was created before this moment. */
  olderThan: IsoDateTime.optional(),
});
export type SessionCleanUpInput = z.infer<typeof SessionCleanUpInput>;

/** Answer of the clean-up: the number of rows removed per kind asked for. */
export const SessionCleanUpResult = z.partialRecord(SessionDataKind, z.number().int());
export type SessionCleanUpResult = z.infer<typeof SessionCleanUpResult>;
