import { hash, randomBytes } from 'node:crypto';

/** SHA-256 of a high-entropy secret, hex. Such secrets are stored only as this digest. */
export function sha256(value: string): string {
  return hash('sha256', value, 'hex');
}

/** SHA-256 of a secret as bytes (for a constant-time comparison without hex round trips). */
export function sha256Bytes(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

/** A new random secret of `bytes` bytes, base64url. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
