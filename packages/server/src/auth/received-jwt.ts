import type { JWTPayload } from 'jose';

/** How a JWT received from a client is timed: now, the clock allowance and the longest life ahead (seconds). */
export interface JwtTiming {
  now: number;
  skew: number;
  maxLifetime: number;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The problem with a received JWT's times, named as `what` (`the client assertion`…), or its `exp`: `exp` required,
 * not past and at most `maxLifetime` ahead; `nbf` and `iat`, when present, numbers not in the future; each beside the
 * clock allowance.
 */
export function jwtTimesProblem(claims: JWTPayload, what: string, timing: JwtTiming): string | { exp: number } {
  const { now, skew, maxLifetime } = timing;
  const { exp, nbf, iat } = claims;
  if (!isNumber(exp)) return `${what} has no exp`;
  if (exp <= now - skew) return `${what} has expired (exp)`;
  if (exp > now + maxLifetime + skew) return `${what} lives too long (exp more than ${maxLifetime} seconds ahead)`;
  if (nbf !== undefined && !isNumber(nbf)) return `${what}'s nbf is not a number`;
  if (iat !== undefined && !isNumber(iat)) return `${what}'s iat is not a number`;
  if (nbf !== undefined && nbf > now + skew) return `${what} is not valid yet (nbf)`;
  if (iat !== undefined && iat > now + skew) return `${what} is issued in the future (iat)`;
  return { exp };
}

/** A JWT's `aud` as a list (a single string, an array, or none). */
export function audiencesOf(claims: JWTPayload): string[] {
  const { aud } = claims;
  return typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
}
