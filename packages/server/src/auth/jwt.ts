import { createHmac, type KeyObject, randomUUID, sign } from 'node:crypto';
import type { JWTPayload } from 'jose';

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
  /** The token's type (`logout+jwt`…); `JWT` when not given. */
  typ?: string | undefined;
}

const hashOf: Record<string, string> = {
  RS256: 'sha256',
  ES256: 'sha256',
  HS256: 'sha256',
  HS384: 'sha384',
  HS512: 'sha512',
};

/** The compact JWS of `input` ("header.payload"): HMAC in place, RSA and ECDSA on the thread pool. */
function signature(input: string, alg: string, key: KeyObject | Uint8Array): Promise<string> | string {
  const hash = hashOf[alg];
  if (hash === undefined) throw new Error(`unsupported JWS algorithm ${alg}`);
  if (alg.startsWith('HS'))
    return createHmac(hash, key as Uint8Array)
      .update(input)
      .digest('base64url');
  const keyInput = alg === 'ES256' ? { key: key as KeyObject, dsaEncoding: 'ieee-p1363' as const } : (key as KeyObject);
  return new Promise((resolve, reject) => {
    sign(hash, Buffer.from(input), keyInput, (error, value) => {
      if (error) reject(error);
      else resolve(value.toString('base64url'));
    });
  });
}

/**
 * Signs `payload` with iss, sub, aud, iat, exp and a fresh jti (unless the payload brings one): RS256 and ES256 with
 * a private KeyObject (node:crypto, not WebCrypto, whose per-call overhead on the event loop is a third of an RSA
 * signature), HS256/384/512 with the key's bytes.
 */
export async function signJwt(
  payload: JWTPayload,
  options: JwtOptions,
  key: KeyObject | Uint8Array,
  header: JwtHeader,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = Object.assign({}, payload);
  claims.iss = options.issuer;
  claims.iat = now;
  claims.exp = now + options.expiresInSeconds;
  if (typeof claims.jti !== 'string') claims.jti = randomUUID();
  if (options.subject !== undefined) claims.sub = options.subject;
  if (options.audience !== undefined) claims.aud = options.audience;
  const input = `${encodedHeader(header)}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${await signature(input, header.alg, key)}`;
}

const headers = new Map<string, string>();

/** The encoded protected header, made once per algorithm, key and type. */
function encodedHeader(header: JwtHeader): string {
  const cacheKey = `${header.alg}.${header.kid ?? ''}.${header.typ ?? ''}`;
  let encoded = headers.get(cacheKey);
  if (encoded === undefined) {
    encoded = Buffer.from(JSON.stringify({ ...header, typ: header.typ ?? 'JWT' })).toString('base64url');
    if (headers.size > 1000) headers.clear();
    headers.set(cacheKey, encoded);
  }
  return encoded;
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
