import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { hmacKey, isHmacAlgorithm, type JwtOptions, signJwt } from '../auth/jwt.js';
import type { AppContext } from '../context.js';
import { hmacSecretOf, type OAuthClient } from './clients.js';

export type SigningContext = Pick<AppContext, 'keys' | 'box'>;

/**
 * Signs a token for the client with its `signingAlgorithm`: RS256 (default) or ES256 with the server's published
 * keys, HS256/384/512 with the client's secret (DESIGN 1.5).
 */
export function signForClient(
  ctx: SigningContext,
  client: OAuthClient,
  payload: JWTPayload,
  options: JwtOptions,
): Promise<string> {
  const algorithm = client.configuration.signingAlgorithm;
  if (isHmacAlgorithm(algorithm)) {
    const key = hmacKeyOf(ctx, client);
    if (key !== undefined) return signJwt(payload, options, key, { alg: algorithm });
  }
  return ctx.keys.sign(payload, options, algorithm === 'ES256' ? 'ES256' : 'RS256');
}

const hmacKeys = new WeakMap<OAuthClient, Uint8Array>();

/** The client's secret as key bytes, made once per client object. */
function hmacKeyOf(ctx: SigningContext, client: OAuthClient): Uint8Array | undefined {
  let key = hmacKeys.get(client);
  if (!key) {
    const secret = hmacSecretOf(ctx.box, client);
    if (secret === undefined) return undefined;
    key = hmacKey(secret);
    hmacKeys.set(client, key);
  }
  return key;
}

/** The algorithm a client's tokens are signed with (what `signForClient` uses). */
export function signingAlgorithmOf(client: OAuthClient): string {
  const algorithm = client.configuration.signingAlgorithm;
  if (isHmacAlgorithm(algorithm)) return client.clientSecretEnc ? algorithm : 'RS256';
  return algorithm === 'ES256' ? 'ES256' : 'RS256';
}

/**
 * OpenID Connect Core §3.3.2.11: `at_hash` / `c_hash` are the left half of the hash of the value, with the hash of
 * the ID token's algorithm (SHA-256 for *256, SHA-384 and SHA-512 for the others).
 */
export function halfHash(value: string, alg: string): string {
  const bits = alg.endsWith('512') ? 'sha512' : alg.endsWith('384') ? 'sha384' : 'sha256';
  const digest = createHash(bits).update(value, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
