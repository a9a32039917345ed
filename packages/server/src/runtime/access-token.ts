import type { JWTPayload } from 'jose';
import { ROLE_CLAIM, roleClaimValue, USER_ID_CLAIM } from '../auth/roles.js';
import type { AppContext } from '../context.js';
import type { OAuthClient } from './clients.js';
import { runtimePaths } from './defaults.js';
import { signForClient } from './signing.js';

export type TokenContext = Pick<AppContext, 'keys' | 'box' | 'baseUrl'>;

export interface AccessTokenSubject {
  /** `sub`: the user's id (or NameID), or the client id for a client's own token. */
  subject: string;
  userId?: string;
  scopes: readonly string[];
  /** REST API role values for `urn:identify:rest-api:role`. */
  roles: readonly string[];
  /** A given `jti` (so that the token can be revoked by what it came from, such as a reused code). */
  jti?: string;
  /** The authentication context class of the sign-in, when there was one. */
  acr?: string;
}

export function issuerOf(ctx: Pick<AppContext, 'baseUrl'>): string {
  return `${ctx.baseUrl()}${runtimePaths.issuer}`;
}

/**
 * A JWT access token for the client carrying aud, scope and client_id: signed with the client's algorithm (the
 * server's keys, or the client's secret for HMAC clients, DESIGN 1.5). Lifetime from `accessTokenLifetime`.
 */
export async function issueAccessToken(
  ctx: TokenContext,
  client: OAuthClient,
  who: AccessTokenSubject,
): Promise<{ accessToken: string; expiresIn: number }> {
  const expiresIn = client.configuration.accessTokenLifetime;
  const payload: JWTPayload = { client_id: client.clientId, scope: who.scopes.join(' ') };
  if (who.jti !== undefined) payload.jti = who.jti;
  if (who.userId) payload[USER_ID_CLAIM] = who.userId;
  if (who.acr !== undefined) payload.acr = who.acr;
  const roles = roleClaimValue(who.roles);
  if (roles !== undefined) payload[ROLE_CLAIM] = roles;
  const accessToken = await signForClient(ctx, client, payload, {
    issuer: issuerOf(ctx),
    subject: who.subject,
    audience: client.clientId,
    expiresInSeconds: expiresIn,
  });
  return { accessToken, expiresIn };
}
