import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../crypto/digest.js';
import { SecretBox } from '../crypto/secret-box.js';
import { generateClientSecret, hasSecret, keepsSecretSealed, noSecret, openSecret, storeSecret } from './secrets.js';

const box = new SecretBox(randomBytes(32));

describe('generateClientSecret', () => {
  it('makes 32 random bytes in base64url for non-HMAC clients', () => {
    const secret = generateClientSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(generateClientSecret('ES256')).not.toBe(secret);
  });

  it('makes a secret of exactly the HMAC key length', () => {
    expect(Buffer.byteLength(generateClientSecret('HS256'), 'utf8')).toBe(32);
    expect(Buffer.byteLength(generateClientSecret('HS384'), 'utf8')).toBe(48);
    expect(Buffer.byteLength(generateClientSecret('HS512'), 'utf8')).toBe(64);
  });
});

describe('storeSecret', () => {
  it('keeps the SHA-256 hex digest for a client that signs with the server keys', () => {
    expect(storeSecret(box, 'the secret', 'RS256')).toEqual({
      clientSecretHash: sha256('the secret'),
      clientSecretEnc: null,
    });
  });

  it('seals the secret of an HMAC client, which opens to the same secret', () => {
    const stored = storeSecret(box, 's'.repeat(48), 'HS384');
    expect(stored.clientSecretHash).toBeNull();
    expect(stored.clientSecretEnc).toMatch(/^v1\./);
    expect(openSecret(box, stored)).toBe('s'.repeat(48));
    expect(hasSecret(stored)).toBe(true);
  });

  it('seals the secret of a client_secret_jwt client whatever its signing algorithm', () => {
    const stored = storeSecret(box, 'c'.repeat(32), 'RS256', 'client_secret_jwt');
    expect(stored.clientSecretHash).toBeNull();
    expect(openSecret(box, stored)).toBe('c'.repeat(32));
    expect(keepsSecretSealed('ES256', 'client_secret_jwt')).toBe(true);
    expect(keepsSecretSealed('HS256', 'private_key_jwt')).toBe(true);
    expect(keepsSecretSealed('RS256', 'client_secret_basic')).toBe(false);
    expect(storeSecret(box, 'x', 'RS256', 'private_key_jwt')).toEqual({
      clientSecretHash: sha256('x'),
      clientSecretEnc: null,
    });
  });

  it('cannot open a digest', () => {
    expect(openSecret(box, storeSecret(box, 'x', 'RS256'))).toBeUndefined();
    expect(hasSecret(noSecret)).toBe(false);
  });
});
