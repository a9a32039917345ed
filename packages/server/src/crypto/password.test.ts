import { pbkdf2Sync } from 'node:crypto';
import { PasswordHash } from '@idsvc/shared';
import { type Algorithm, hash } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './password.js';

const ARGON2I = 1 as Algorithm;

function pbkdf2Phc(password: string, iterations: number, passlibForm = false): string {
  const salt = Buffer.from('0123456789abcdef');
  const derived = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
  if (passlibForm)
    return `$pbkdf2-sha256$${iterations}$${b64(salt).replaceAll('+', '.')}$${b64(derived).replaceAll('+', '.')}`;
  return `$pbkdf2-sha256$i=${iterations}$${b64(salt)}$${b64(derived)}`;
}

describe('verifyPassword', () => {
  it('verifies idsvc argon2id hashes and needs no rehash for them', async () => {
    const stored = await hashPassword('s3cret');
    expect(await verifyPassword(stored, 's3cret')).toBe(true);
    expect(await verifyPassword(stored, 'wrong')).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('verifies migrated argon2i hashes and asks for a rehash', async () => {
    const stored = await hash('s3cret', { algorithm: ARGON2I, memoryCost: 4096, timeCost: 3, parallelism: 1 });
    expect(stored.startsWith('$argon2i$')).toBe(true);
    expect(PasswordHash.safeParse(stored).success).toBe(true);
    expect(await verifyPassword(stored, 's3cret')).toBe(true);
    expect(await verifyPassword(stored, 'wrong')).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it('verifies bcrypt $2a$ and $2b$ hashes', async () => {
    const b = bcrypt.hashSync('s3cret', 4);
    const a = b.replace(/^\$2b\$/, '$2a$');
    for (const stored of [a, b]) {
      expect(PasswordHash.safeParse(stored).success).toBe(true);
      expect(await verifyPassword(stored, 's3cret')).toBe(true);
      expect(await verifyPassword(stored, 'wrong')).toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });

  it('verifies pbkdf2-sha256 in the PHC form and in passlib form', async () => {
    for (const stored of [pbkdf2Phc('s3cret', 1000), pbkdf2Phc('s3cret', 1000, true)]) {
      expect(PasswordHash.safeParse(stored).success).toBe(true);
      expect(await verifyPassword(stored, 's3cret')).toBe(true);
      expect(await verifyPassword(stored, 'wrong')).toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });

  it('refuses strings of no known form', async () => {
    expect(await verifyPassword('plain', 'plain')).toBe(false);
    expect(await verifyPassword('$1$abc$def', 'x')).toBe(false);
    expect(PasswordHash.safeParse('plain').success).toBe(false);
    expect(PasswordHash.safeParse('$2y$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234').success).toBe(false);
    expect(PasswordHash.safeParse(pbkdf2Phc('x', 1).replace('i=1$', 'i=99999999$')).success).toBe(false);
  });
});
