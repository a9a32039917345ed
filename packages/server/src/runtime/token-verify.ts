import { eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import { hmacKey, isHmacAlgorithm } from '../auth/jwt.js';
import type { AppContext } from '../context.js';
import { revokedAccessTokens } from '../db/schema/index.js';
import { issuerOf } from './access-token.js';
import { findClient, hmacSecretOf } from './clients.js';

export type VerifyContext = Pick<AppContext, 'db' | 'box' | 'keys' | 'baseUrl'>;

const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const tenYears = 10 * 365 * 24 * 3600;

/**
 * Verifies a JWT this service issued (access or ID token): the server's keys, or, for an HMAC algorithm, the
 * secret of the client it was issued to (`client_id`, else `azp`, else `aud`). Undefined when it does not verify.
 * `ignoreExpiry` serves id_token_hint, which may name an expired token.
 */
export async function verifyIssuedToken(
  ctx: VerifyContext,
  token: string,
  options: { ignoreExpiry?: boolean } = {},
): Promise<JWTPayload | undefined> {
  if (!jwtShape.test(token)) return undefined;
  const verifyOptions = options.ignoreExpiry ? { clockTolerance: tenYears } : {};
  const issuer = issuerOf(ctx);
  try {
    const { alg } = decodeProtectedHeader(token);
    if (!isHmacAlgorithm(alg)) return await ctx.keys.verify(token, issuer, verifyOptions);
    const claims = decodeJwt(token);
    const clientId = [claims.client_id, claims.azp, claims.aud].find((v) => typeof v === 'string') as
      | string
      | undefined;
    const client = clientId === undefined ? undefined : await findClient(ctx.db, clientId);
    if (!client || client.configuration.signingAlgorithm !== alg) return undefined;
    const secret = hmacSecretOf(ctx.box, client);
    if (secret === undefined) return undefined;
    return (await jwtVerify(token, hmacKey(secret), { ...verifyOptions, issuer, algorithms: [alg] })).payload;
  } catch {
    return undefined;
  }
}

/** Whether the access token's `jti` was revoked (RFC 7009). */
export async function isRevoked(ctx: Pick<AppContext, 'db'>, jti: unknown): Promise<boolean> {
  if (typeof jti !== 'string') return false;
  const rows = await ctx.db
    .select({ jti: revokedAccessTokens.jti })
    .from(revokedAccessTokens)
    .where(eq(revokedAccessTokens.jti, jti));
  return rows.length > 0;
}

/** Records a revoked access token until it would have expired anyway. */
export async function revokeAccessToken(
  ctx: Pick<AppContext, 'db'>,
  jti: string,
  exp: number | undefined,
): Promise<void> {
  const expiresAt = new Date((exp ?? Math.floor(Date.now() / 1000) + 86_400) * 1000);
  await ctx.db.insert(revokedAccessTokens).values({ jti, expiresAt }).onConflictDoNothing();
}

/** An access token (not an ID token): it carries `client_id` and `scope`. */
export function isAccessToken(payload: JWTPayload): boolean {
  return typeof payload.client_id === 'string' && typeof payload.scope === 'string';
}
