import type { JWTPayload } from 'jose';
import { hmacKey, isHmacAlgorithm, type JwtOptions, signJwt } from '../auth/jwt.js';
import type { AppContext } from '../context.js';
import { issuerOf } from './access-token.js';
import { hmacSecretOf, type OAuthClient } from './clients.js';
import { runtimeDefaults } from './defaults.js';

/** The event of a logout token (OpenID Connect Back-Channel Logout 1.0 §2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** The header type of a logout token (§2.4, §4.1: it cannot be taken for an ID token). */
export const LOGOUT_TOKEN_TYPE = 'logout+jwt';

export interface LogoutTokenInput {
  /** The `sub` the client's ID tokens carry for the person (claims.ts `subjectFor`); left out when unknown. */
  subject?: string | undefined;
  /** The session that ended, as `sid` (the `sid` of the client's ID tokens). */
  sessionId: string;
}

/**
 * A logout token for the client (OpenID Connect Back-Channel Logout 1.0 §2.4): typed `logout+jwt`; iss, aud (the
 * client id), iat, exp (`runtimeDefaults.logoutTokenLifetime`), a fresh jti, sub, sid and the back-channel logout
 * event; never a nonce. Signed as the client's ID tokens are (signing.ts `signForClient`): the client's secret for
 * HS256/384/512 when it has one, else the server's ES256 or RS256 key.
 */
export function issueLogoutToken(
  ctx: Pick<AppContext, 'keys' | 'box' | 'baseUrl'>,
  client: OAuthClient,
  input: LogoutTokenInput,
): Promise<string> {
  const payload: JWTPayload = { sid: input.sessionId, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } };
  const options: JwtOptions = {
    issuer: issuerOf(ctx),
    audience: client.clientId,
    expiresInSeconds: runtimeDefaults.logoutTokenLifetime,
    ...(input.subject !== undefined ? { subject: input.subject } : {}),
  };
  const algorithm = client.configuration.signingAlgorithm;
  if (isHmacAlgorithm(algorithm)) {
    const secret = hmacSecretOf(ctx.box, client);
    if (secret !== undefined)
      return signJwt(payload, options, hmacKey(secret), { alg: algorithm, typ: LOGOUT_TOKEN_TYPE });
  }
  return ctx.keys.sign(payload, options, algorithm === 'ES256' ? 'ES256' : 'RS256', LOGOUT_TOKEN_TYPE);
}
