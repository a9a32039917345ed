import type { Role } from '@idsvc/shared';
import { eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import type { AppContext } from '../context.js';
import { revokedAccessTokens, users } from '../db/schema/index.js';
import { unauthorized } from '../http/api-error.js';
import { findClient, hmacSecretOf } from '../runtime/clients.js';
import { hmacKey, isHmacAlgorithm } from './jwt.js';
import type { Principal } from './principal.js';
import { knownRoles, parseRoles, ROLE_CLAIM, USER_ID_CLAIM } from './roles.js';

/**
 * The caller of the admin API, from `Authorization: Bearer <access token>`. Throws `unauthorized()` for a missing,
 * malformed, expired, revoked or wrongly signed token and for a token of a user who is inactive, locked or gone.
 */
export async function authenticate(ctx: AppContext, authorization: string | undefined): Promise<Principal> {
  const match = /^Bearer +([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+) *$/i.exec(authorization ?? '');
  if (!match) throw unauthorized();
  const payload = await verifyAccessToken(ctx, match[1]);
  if (typeof payload.sub !== 'string') throw unauthorized();
  if (typeof payload.jti === 'string' && (await isRevoked(ctx, payload.jti)))
    throw unauthorized('the token was revoked');
  const userId = typeof payload[USER_ID_CLAIM] === 'string' ? (payload[USER_ID_CLAIM] as string) : undefined;
  if (userId !== undefined) await ensureUserMaySignIn(ctx, userId);
  return {
    subject: payload.sub,
    ...(userId !== undefined ? { userId } : {}),
    clientId: clientIdOf(payload),
    roles: parseRoles(payload[ROLE_CLAIM]),
  };
}

/** Verifies with the server's keys, or with the issuing client's secret for HMAC-signed tokens. */
async function verifyAccessToken(ctx: AppContext, token: string): Promise<JWTPayload> {
  const issuer = `${ctx.baseUrl()}/runtime/oauth2`;
  try {
    const { alg } = decodeProtectedHeader(token);
    if (!isHmacAlgorithm(alg)) return await ctx.keys.verify(token, issuer);
    const clientId = decodeJwt(token).client_id;
    const client = typeof clientId === 'string' ? await findClient(ctx.db, clientId) : undefined;
    const secret = client && client.configuration.signingAlgorithm === alg ? hmacSecretOf(ctx.box, client) : undefined;
    if (secret === undefined) throw unauthorized();
    return (await jwtVerify(token, hmacKey(secret), { issuer, algorithms: [alg] })).payload;
  } catch {
    throw unauthorized();
  }
}

function clientIdOf(payload: JWTPayload): string {
  if (typeof payload.client_id === 'string') return payload.client_id;
  if (typeof payload.azp === 'string') return payload.azp;
  return typeof payload.aud === 'string' ? payload.aud : '';
}

async function isRevoked(ctx: AppContext, jti: string): Promise<boolean> {
  const rows = await ctx.db
    .select({ jti: revokedAccessTokens.jti })
    .from(revokedAccessTokens)
    .where(eq(revokedAccessTokens.jti, jti));
  return rows.length > 0;
}

async function ensureUserMaySignIn(ctx: AppContext, userId: string): Promise<void> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId)) throw unauthorized();
  const [user] = await ctx.db
    .select({ active: users.active, locked: users.locked })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw unauthorized('the user no longer exists');
  if (!user.active) throw unauthorized('the user is inactive');
  if (user.locked) throw unauthorized('the user is locked');
}

/**
 * Whether the principal may call an operation whose weakest role is `required`: Administrator may do everything,
 * Observer what Observer and User may (of the User operations only reads, when `method` is given), User only User.
 */
export function hasRole(principal: Pick<Principal, 'roles'>, required: Role, method?: string): boolean {
  const rank = (role: Role) => knownRoles.indexOf(role);
  return principal.roles.some((role) => {
    if (role === 'Administrator') return true;
    if (role === 'Observer' && required === 'User') return method === undefined || method.toUpperCase() === 'GET';
    return rank(role) >= rank(required);
  });
}
