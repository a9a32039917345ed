import { randomUUID } from 'node:crypto';
import { type CryptoKey, type JWTPayload, SignJWT } from 'jose';

export interface JwtOptions {
  audience?: string | string[];
  /** Lifetime from now; negative values make an already expired token (tests). */
  expiresInSeconds: number;
  issuer: string;
  subject?: string;
}

export interface JwtHeader {
  alg: string;
  kid?: string;
}

/** Signs `payload` with iss, sub, aud, iat, exp and a fresh jti (unless the payload brings one). */
export function signJwt(
  payload: JWTPayload,
  options: JwtOptions,
  key: CryptoKey | Uint8Array,
  header: JwtHeader,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(payload)
    .setProtectedHeader({ ...header, typ: 'JWT' })
    .setIssuer(options.issuer)
    .setIssuedAt(now)
    .setExpirationTime(now + options.expiresInSeconds)
    .setJti(typeof payload.jti === 'string' ? payload.jti : randomUUID());
  if (options.subject !== undefined) jwt.setSubject(options.subject);
  if (options.audience !== undefined) jwt.setAudience(options.audience);
  return jwt.sign(key);
}

/** HMAC algorithms a client may choose; the key is the client secret's UTF-8 bytes. */
export const hmacAlgorithms = ['HS256', 'HS384', 'HS512'] as const;
export type HmacAlgorithm = (typeof hmacAlgorithms)[number];

export function isHmacAlgorithm(value: unknown): value is HmacAlgorithm {
  return typeof value === 'string' && (hmacAlgorithms as readonly string[]).includes(value);
}

export function hmacKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}
