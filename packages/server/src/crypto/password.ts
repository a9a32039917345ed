import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { maxPbkdf2Iterations, passwordHashForms } from '@idsvc/shared';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

/** `Algorithm.Argon2id` (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2 as Algorithm;

/** argon2id with OWASP's recommended parameters (19 MiB, 2 iterations, 1 lane). */
const options = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

const pbkdf2Async = promisify(pbkdf2);

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/**
 * Verifies a password against a stored PHC string: argon2id/argon2i (idsvc's own and migrated), bcrypt `$2a$`/`$2b$`
 * and pbkdf2-sha256 (migrated). False for anything that does not verify or parse.
 */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    if (stored.startsWith('$argon2')) return await verify(stored, password);
    if (passwordHashForms.bcrypt.test(stored)) return await bcrypt.compare(password, stored);
    if (stored.startsWith('$pbkdf2-sha256$')) return await verifyPbkdf2(stored, password);
    return false;
  } catch {
    return false;
  }
}

/** Salt and hash of a pbkdf2 PHC string: standard base64 or passlib's adapted base64 (`.` for `+`), padding optional. */
function decodeBase64(text: string): Buffer {
  return Buffer.from(text.replaceAll('.', '+'), 'base64');
}

/** `$pbkdf2-sha256$i=ITERATIONS$SALT$HASH` (also passlib's `$pbkdf2-sha256$ITERATIONS$SALT$HASH`). */
async function verifyPbkdf2(stored: string, password: string): Promise<boolean> {
  const match = passwordHashForms.pbkdf2.exec(stored);
  if (!match) return false;
  const iterations = Number(match[2]);
  if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > maxPbkdf2Iterations) return false;
  const [, , , saltText, hashText] = stored.split('$');
  const salt = decodeBase64(saltText);
  const expected = decodeBase64(hashText);
  if (salt.length === 0 || expected.length < 16) return false;
  const actual = await pbkdf2Async(password, salt, iterations, expected.length, 'sha256');
  return timingSafeEqual(actual, expected);
}

/** A PHC string is due for rehashing when it is not argon2id with the current parameters. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`$argon2id$v=19$m=${options.memoryCost},t=${options.timeCost},p=${options.parallelism}$`);
}
