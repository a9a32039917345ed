import { randomBytes } from 'node:crypto';
import { hmacKeyBytes, isHmacAlgorithm, type SigningAlgorithm, type TokenEndpointAuthMethod } from '@idsvc/shared';
import { randomSecret, sha256 } from '../crypto/digest.js';
import type { SecretBox } from '../crypto/secret-box.js';

/** How a client secret is kept: a SHA-256 digest, or sealed for clients that sign or verify with it (HMAC). */
export interface StoredSecret {
  clientSecretHash: string | null;
  clientSecretEnc: string | null;
}

export const noSecret: StoredSecret = { clientSecretHash: null, clientSecretEnc: null };

/**
 * A new client secret: 32 random bytes, base64url. For an HMAC algorithm it is exactly the key length the
 * algorithm needs (DESIGN 1.5: 32, 48 or 64 bytes), in base64url characters (6 random bits each).
 */
export function generateClientSecret(algorithm: SigningAlgorithm = 'RS256'): string {
  if (!isHmacAlgorithm(algorithm)) return randomSecret(32);
  const length = hmacKeyBytes[algorithm];
  return randomBytes(Math.ceil((length * 3) / 4))
    .toString('base64url')
    .slice(0, length);
}

/**
 * Whether a client's secret must be kept sealed: the server signs the client's tokens with it (an HMAC
 * `signingAlgorithm`), or verifies the client's client_secret_jwt assertions with it. A digest serves neither.
 */
export function keepsSecretSealed(algorithm: SigningAlgorithm, authMethod?: TokenEndpointAuthMethod): boolean {
  return isHmacAlgorithm(algorithm) || authMethod === 'client_secret_jwt';
}

/**
 * The stored form of a secret, as the runtime verifies it (runtime/clients.ts): the hex SHA-256 digest, or the
 * secret sealed with the server's key for a client that `keepsSecretSealed`.
 */
export function storeSecret(
  box: SecretBox,
  secret: string,
  algorithm: SigningAlgorithm,
  authMethod?: TokenEndpointAuthMethod,
): StoredSecret {
  return keepsSecretSealed(algorithm, authMethod)
    ? { clientSecretHash: null, clientSecretEnc: box.seal(secret) }
    : { clientSecretHash: sha256(secret), clientSecretEnc: null };
}

/** The secret itself when it is kept sealed (a digest cannot be turned back into one). */
export function openSecret(box: SecretBox, stored: StoredSecret): string | undefined {
  return stored.clientSecretEnc ? box.open(stored.clientSecretEnc) : undefined;
}

/** Whether a stored secret exists. */
export const hasSecret = (stored: StoredSecret) => stored.clientSecretHash !== null || stored.clientSecretEnc !== null;
