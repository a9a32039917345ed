import type { JWTPayload } from 'jose';
import { hmacKey, isHmacAlgorithm, signJwt } from '../auth/jwt.js';
import { ROLE_CLAIM, roleClaimValue, USER_ID_CLAIM } from '../auth/roles.js';
import type { AppContext } from '../context.js';
import { hmacSecretOf, type OAuthClient } from './clients.js';

export type TokenContext = Pick<AppContext, 'keys' | 'box' | 'baseUrl'>;

export interface AccessTokenSubject {
  /** `sub`: the user's id, or the client id for a client's own token. */
  subject: string;
  userId?: string;
  scopes: readonly string[];
  /** REST API role values for `urn:identify:rest-api:role`. */
  roles: readonly string[];
}

export function issuerOf(ctx: Pick<AppContext, 'baseUrl'>): string {
  return `${ctx.baseUrl()}/runtime/oauth2`;
}

/**
 * A JWT access token for the client: signed with the server's keys, or with the client's secret when the client
 * signs with HMAC (DESIGN 1.5). Lifetime from the client's `accessTokenLifetime`.
 */
export async function issueAccessToken(
  ctx: TokenContext,
  client: OAuthClient,
  who: AccessTokenSubject,
): Promise<{ accessToken: string; expiresIn: number }> {
  const expiresIn = client.configuration.accessTokenLifetime;
  const payload: JWTPayload = { client_id: client.clientId, scope: who.scopes.join(' ') };
  if (who.userId) payload[USER_ID_CLAIM] = who.userId;
  const roles = roleClaimValue(who.roles);
  if (roles !== undefined) payload[ROLE_CLAIM] = roles;
  const options = {
    issuer: issuerOf(ctx),
    subject: who.subject,
    audience: client.clientId,
    expiresInSeconds: expiresIn,
  };
  const algorithm = client.configuration.signingAlgorithm;
  const secret = hmacSecretOf(ctx.box, client);
  const accessToken =
    isHmacAlgorithm(algorithm) && secret !== undefined
      ? await signJwt(payload, options, hmacKey(secret), { alg: algorithm })
      : await ctx.keys.sign(payload, options);
  return { accessToken, expiresIn };
}
