import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { systemState } from '../db/schema/index.js';
import { runtimeDefaults } from './defaults.js';
import { oncePerContext } from './once-per-context.js';

type KeyContext = Pick<AppContext, 'db' | 'box'>;

/**
 * The runtime's MAC key (CSRF tokens): HKDF-SHA256 of a random value kept sealed in system_state, so every instance
 * sharing the database derives the same key. Read once per context.
 */
export const macKey: (ctx: KeyContext) => Promise<Buffer> = oncePerContext(loadKey);

async function loadKey(ctx: KeyContext): Promise<Buffer> {
  const name = runtimeDefaults.macKeyState;
  await ctx.db
    .insert(systemState)
    .values({ key: name, value: ctx.box.seal(randomBytes(32).toString('base64')) })
    .onConflictDoNothing();
  const [row] = await ctx.db.select({ value: systemState.value }).from(systemState).where(eq(systemState.key, name));
  const seed = Buffer.from(ctx.box.open(String(row.value)), 'base64');
  return Buffer.from(hkdfSync('sha256', seed, Buffer.alloc(0), 'idsvc runtime csrf', 32));
}

/** HMAC-SHA256 of the parts (joined unambiguously), base64url. */
export function mac(key: Buffer, parts: readonly string[]): string {
  const h = createHmac('sha256', key);
  for (const part of parts) h.update(`${Buffer.byteLength(part)}:${part};`);
  return h.digest('base64url');
}

/** Constant-time comparison of two base64url MACs. */
export function macEquals(a: string, b: string): boolean {
  const x = Buffer.from(a, 'base64url');
  const y = Buffer.from(b, 'base64url');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
