import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import { publicKeyJwsAlgorithms } from '../../auth/jws-algorithms.js';
import { runtimeDefaults } from '../defaults.js';
import { BACKCHANNEL_LOGOUT_EVENT } from '../logout-token.js';

/**
 * The signature algorithms of a logout token from an upstream OpenID Connect provider: those of the public keys it
 * publishes (its JWKS). HMAC (HS256/384/512, keyed with this service's client secret) is not taken: the upstream ID
 * tokens are verified with the published keys only, and a secret shared with the provider would let whoever holds it
 * (the provider's client registration, this service's configuration) end sessions here in the provider's name.
 */
export const LOGOUT_TOKEN_ALGORITHMS: readonly string[] = [...publicKeyJwsAlgorithms, 'Ed25519'];

/** The types a logout token's header may name (§2.4: `logout+jwt`; plain JWTs too, or none). */
const TYPES = ['logout+jwt', 'jwt'];

/** Why the protected header is not one of a logout token taken here; undefined when it is. */
export function logoutTokenHeaderProblem(header: ProtectedHeaderParameters): string | undefined {
  const { alg, typ } = header;
  if (alg === undefined || alg === 'none') return 'the logout token is not signed';
  if (/^HS/.test(alg)) return `the logout token is signed with ${alg}: only the provider's published keys are taken`;
  if (!LOGOUT_TOKEN_ALGORITHMS.includes(alg)) return `the logout token is signed with ${alg}`;
  if (typ !== undefined && !TYPES.includes(typ.toLowerCase().replace(/^application\//, ''))) {
    return `the logout token is of the type ${typ}`;
  }
  return undefined;
}

/** What a valid logout token names: the person or the session at the provider (or both), and its id. */
export interface LogoutTokenNames {
  subject?: string;
  session?: string;
  jti: string;
  /** Seconds since the epoch. */
  iat: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const optionalText = (value: unknown) => value === undefined || (typeof value === 'string' && value !== '');

/**
 * The claims of a logout token whose signature, issuer and audience verified (OpenID Connect Back-Channel Logout 1.0
 * §2.6): `iat` within the clock allowance and at most `upstreamLogoutTokenMaxAge` old; `exp`, if present, not passed;
 * the back-channel logout event, a JSON object; `sub` or `sid` (or both), strings; no `nonce`; a `jti`. Returns what
 * it names, or the reason it is refused. `now` is in seconds.
 */
export function checkLogoutTokenClaims(payload: JWTPayload, now = Date.now() / 1000): LogoutTokenNames | string {
  const skew = runtimeDefaults.clockSkew;
  const { iat, exp, sub, sid, jti, events } = payload as JWTPayload & { sid?: unknown; events?: unknown };
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return 'the logout token has no iat';
  if (iat > now + skew) return 'the logout token is issued in the future (iat)';
  if (iat < now - runtimeDefaults.upstreamLogoutTokenMaxAge - skew) return 'the logout token is too old (iat)';
  if (exp !== undefined && (typeof exp !== 'number' || exp <= now - skew)) return 'the logout token has expired (exp)';
  if (!isObject(events) || !isObject(events[BACKCHANNEL_LOGOUT_EVENT])) {
    return `the logout token has no ${BACKCHANNEL_LOGOUT_EVENT} event`;
  }
  if ('nonce' in payload) return 'the logout token carries a nonce';
  if (!optionalText(sub) || !optionalText(sid)) return 'the sub or sid of the logout token is not a string';
  if (sub === undefined && sid === undefined) return 'the logout token names neither sub nor sid';
  if (typeof jti !== 'string' || jti === '') return 'the logout token has no jti';
  if (jti.length > runtimeDefaults.maxSamlAssertionIdLength) return 'the jti of the logout token is too long';
  return {
    jti,
    iat,
    ...(typeof sub === 'string' ? { subject: sub } : {}),
    ...(typeof sid === 'string' ? { session: sid } : {}),
  };
}
