import { sql } from 'drizzle-orm';
import { keyAlgorithms } from '../auth/signing-keys.js';
import type { AppContext } from '../context.js';
import { connections } from '../db/schema/index.js';
import { runtimeDefaults } from './defaults.js';

/**
 * The longest life of a token the server signs: ID tokens, and every client's access tokens (a client may set
 * `accessTokenLifetime`), plus the clock allowance. A retired key stays published this long.
 */
export async function longestTokenLifetime(ctx: Pick<AppContext, 'db'>): Promise<number> {
  const lifetime = sql<
    number | null
  >`max(case when ${connections.configuration}->>'accessTokenLifetime' ~ '^[0-9]{1,9}$'
    then (${connections.configuration}->>'accessTokenLifetime')::int end)`;
  const [row] = await ctx.db
    .select({ longest: lifetime })
    .from(connections)
    .where(sql`${connections.pluginType} = 'OAuth20'`);
  return Math.max(runtimeDefaults.idTokenLifetime, 3600, Number(row?.longest ?? 0)) + runtimeDefaults.clockSkew;
}

/** Rotates each key set whose signing key is due (once across the instances sharing the database). */
export async function rotateDueKeys(ctx: Pick<AppContext, 'db' | 'keys' | 'logger'>): Promise<string[]> {
  const retiredKeyLifetimeSeconds = await longestTokenLifetime(ctx);
  const rotated: string[] = [];
  for (const alg of keyAlgorithms) {
    const kid = await ctx.keys.rotateIfDue(runtimeDefaults.signingKeyRotationInterval, {
      alg,
      publishDelaySeconds: runtimeDefaults.signingKeyPublishDelay,
      retiredKeyLifetimeSeconds,
    });
    if (kid) {
      rotated.push(kid);
      ctx.logger.info('signing key rotation: a new key is published', { alg, kid });
    }
  }
  return rotated;
}

/** Checks for due rotations every `signingKeyCheckInterval` (the timer does not keep the process alive). */
export function scheduleKeyRotation(ctx: Pick<AppContext, 'db' | 'keys' | 'logger'>): void {
  const timer = setInterval(() => {
    rotateDueKeys(ctx).catch((error: unknown) => {
      ctx.logger.warn('signing key rotation check failed', { error: String(error) });
    });
  }, runtimeDefaults.signingKeyCheckInterval * 1000);
  timer.unref();
}
