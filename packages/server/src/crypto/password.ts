import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2 as Algorithm;

/** argon2id with OWASP's recommended parameters (19 MiB, 2 iterations, 1 lane). */
const options = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** Verifies a password against a stored PHC string; false for anything that does not verify or parse. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A PHC string is due for rehashing when it is not argon2id with the current parameters. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`$argon2id$v=19$m=${options.memoryCost},t=${options.timeCost},p=${options.parallelism}$`);
}
