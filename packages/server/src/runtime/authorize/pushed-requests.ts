import { and, eq, gt } from 'drizzle-orm';
import { randomSecret, sha256 } from '../../crypto/digest.js';
import type { DbOrTx } from '../../db/client.js';
import { pushedAuthorizationRequests } from '../../db/schema/index.js';
import { runtimeDefaults } from '../defaults.js';

/** RFC 9126 §2.2: the `request_uri` of a pushed request is this URN followed by a random value. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

export interface PushedRequest {
  requestUri: string;
  /** Seconds the `request_uri` can be used. */
  expiresIn: number;
}

/** The key a `request_uri` is kept under: the SHA-256 digest (hex) of its random part. */
export function requestUriKey(randomPart: string): string {
  return sha256(randomPart);
}

/**
 * Keeps the client's authorization request parameters for `pushedAuthorizationRequestLifetime` and returns the
 * `request_uri` that names them: 32 random bytes after the URN prefix, stored only as their digest.
 */
export async function storePushedRequest(
  db: DbOrTx,
  clientId: string,
  params: URLSearchParams,
  now = Date.now(),
): Promise<PushedRequest> {
  const randomPart = randomSecret(32);
  const expiresIn = runtimeDefaults.pushedAuthorizationRequestLifetime;
  await db.insert(pushedAuthorizationRequests).values({
    requestUriHash: requestUriKey(randomPart),
    clientId,
    params: [...params],
    expiresAt: new Date(now + expiresIn * 1000),
  });
  return { requestUri: `${REQUEST_URI_PREFIX}${randomPart}`, expiresIn };
}

/**
 * Uses the pushed request the `request_uri` names, once: the row of this client that has not expired is deleted and
 * its parameters returned, in one statement, so that of two concurrent uses only one gets them. Undefined when the
 * `request_uri` is malformed, unknown, already used, expired or another client's (another client's stays usable by
 * its own client).
 */
export async function consumePushedRequest(
  db: DbOrTx,
  clientId: string,
  requestUri: string,
  now = Date.now(),
): Promise<URLSearchParams | undefined> {
  if (!requestUri.startsWith(REQUEST_URI_PREFIX)) return undefined;
  const randomPart = requestUri.slice(REQUEST_URI_PREFIX.length);
  if (randomPart === '') return undefined;
  const table = pushedAuthorizationRequests;
  const [row] = await db
    .delete(table)
    .where(
      and(
        eq(table.requestUriHash, requestUriKey(randomPart)),
        eq(table.clientId, clientId),
        gt(table.expiresAt, new Date(now)),
      ),
    )
    .returning({ params: table.params });
  return row ? new URLSearchParams(row.params) : undefined;
}
