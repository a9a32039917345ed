import { randomInt } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { randomSecret, sha256 } from '../../crypto/digest.js';
import type { DbOrTx } from '../../db/client.js';
import { deviceCodes } from '../../db/schema/index.js';
import { runtimeDefaults } from '../defaults.js';

export type DeviceCodeRow = typeof deviceCodes.$inferSelect;

/** A new user code, `XXXX-XXXX` from the consonants of `userCodeAlphabet` (RFC 8628 §6.1). */
export function newUserCode(): string {
  const { userCodeAlphabet: alphabet, userCodeLength: length } = runtimeDefaults;
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
  return `${code.slice(0, length / 2)}-${code.slice(length / 2)}`;
}

/** What a person typed, in the stored form: upper case, without spaces or dashes, then `XXXX-XXXX`. */
export function normaliseUserCode(typed: string): string | undefined {
  const bare = typed.toUpperCase().replace(/[\s-]/g, '');
  const { userCodeAlphabet: alphabet, userCodeLength: length } = runtimeDefaults;
  if (bare.length !== length || [...bare].some((ch) => !alphabet.includes(ch))) return undefined;
  return `${bare.slice(0, length / 2)}-${bare.slice(length / 2)}`;
}

/** Stores a device authorization; returns the device code (kept as a digest) and the user code. */
export async function storeDeviceCode(
  db: DbOrTx,
  clientId: string,
  scopes: readonly string[],
): Promise<{ deviceCode: string; userCode: string }> {
  const deviceCode = randomSecret(32);
  const expiresAt = new Date(Date.now() + runtimeDefaults.deviceCodeLifetime * 1000);
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode();
    const rows = await db
      .insert(deviceCodes)
      .values({
        deviceCodeHash: sha256(deviceCode),
        userCode,
        clientId,
        scope: scopes.join(' '),
        interval: runtimeDefaults.devicePollInterval,
        expiresAt,
      })
      .onConflictDoNothing()
      .returning({ userCode: deviceCodes.userCode });
    if (rows.length === 1) return { deviceCode, userCode };
    if (attempt >= 5) throw new Error('could not pick a free user code');
  }
}

/** The pending, unexpired device authorization of a user code. */
export async function pendingByUserCode(db: DbOrTx, typed: string): Promise<DeviceCodeRow | undefined> {
  const userCode = normaliseUserCode(typed);
  if (userCode === undefined) return undefined;
  const [row] = await db
    .select()
    .from(deviceCodes)
    .where(
      and(eq(deviceCodes.userCode, userCode), eq(deviceCodes.status, 'pending'), gt(deviceCodes.expiresAt, new Date())),
    );
  return row;
}

/** Records the person's answer; false when the code is no longer pending. */
export async function answerDeviceCode(
  db: DbOrTx,
  userCode: string,
  userId: string,
  approved: boolean,
): Promise<boolean> {
  const rows = await db
    .update(deviceCodes)
    .set({ status: approved ? 'approved' : 'denied', userId })
    .where(
      and(eq(deviceCodes.userCode, userCode), eq(deviceCodes.status, 'pending'), gt(deviceCodes.expiresAt, new Date())),
    )
    .returning({ userCode: deviceCodes.userCode });
  return rows.length === 1;
}

export async function findDeviceCode(db: DbOrTx, deviceCode: string): Promise<DeviceCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(deviceCodes)
    .where(eq(deviceCodes.deviceCodeHash, sha256(deviceCode)));
  return row;
}

/** Notes a poll; true when it came sooner than the interval allows (the interval then grows by 5 s). */
export async function notePoll(db: DbOrTx, row: DeviceCodeRow, now = new Date()): Promise<boolean> {
  const tooSoon = row.lastPolledAt !== null && now.getTime() - row.lastPolledAt.getTime() < row.interval * 1000;
  await db
    .update(deviceCodes)
    .set({ lastPolledAt: now, ...(tooSoon ? { interval: sql`${deviceCodes.interval} + 5` } : {}) })
    .where(eq(deviceCodes.deviceCodeHash, row.deviceCodeHash));
  return tooSoon;
}

/** Marks an approved authorization used; false when it was used already (a concurrent poll). */
export async function consumeDeviceCode(db: DbOrTx, row: DeviceCodeRow): Promise<boolean> {
  const rows = await db
    .update(deviceCodes)
    .set({ status: 'consumed' })
    .where(and(eq(deviceCodes.deviceCodeHash, row.deviceCodeHash), eq(deviceCodes.status, 'approved')))
    .returning({ status: deviceCodes.status });
  return rows.length === 1;
}
