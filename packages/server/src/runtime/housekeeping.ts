import type { AppContext } from '../context.js';
import {
  deleteExpiredBatch,
  type ExpiredRowKind,
  expiredRowKinds,
  tryHousekeepingLock,
} from '../queries/expired-rows.js';
import { runtimeDefaults } from './defaults.js';

export type HousekeepingContext = Pick<AppContext, 'db' | 'database' | 'logger'>;

/** How expired rows are removed (`runtimeDefaults.housekeeping` documents each value). */
export interface HousekeepingSettings {
  batchSize: number;
  grace: Record<Exclude<ExpiredRowKind, 'correlationErrors'>, number>;
  correlationErrorRetention: number;
}

export type RemovedRows = Record<ExpiredRowKind, number>;

export interface HousekeepingResult {
  /** True when another instance sharing the database was removing expired rows, so this one did nothing. */
  skipped: boolean;
  removed: RemovedRows;
}

const none = (): RemovedRows => Object.fromEntries(expiredRowKinds.map((kind) => [kind, 0])) as RemovedRows;

/**
 * Deletes the rows that are of no more use: sessions, codes, tokens and the IDs of used SAML assertions some time
 * after they expired, correlation error records after their retention. Each table is emptied of them in batches of
 * `batchSize` rows, each batch a statement of its own, so that a large backlog holds no lock for long. Instances
 * sharing a PostgreSQL database take turns: one that finds another at work skips. The embedded database, which has
 * no autovacuum, is vacuumed after each run, so that the space of the deleted (and updated) rows is used again
 * instead of the files growing. Logs the counts when anything was deleted.
 */
export async function removeExpiredRows(
  ctx: HousekeepingContext,
  settings: HousekeepingSettings = runtimeDefaults.housekeeping,
): Promise<HousekeepingResult> {
  const removed = await whileNoOtherInstance(ctx, () => removeAll(ctx, settings));
  if (!removed) return { skipped: true, removed: none() };
  await ctx.database.vacuum();
  const total = Object.values(removed).reduce((sum, n) => sum + n, 0);
  if (total > 0) {
    ctx.database.noteWrites(total);
    ctx.logger.info('housekeeping: expired rows removed', { removed });
  }
  return { skipped: false, removed };
}

async function removeAll(ctx: HousekeepingContext, settings: HousekeepingSettings): Promise<RemovedRows> {
  const seconds: RemovedRows = { ...settings.grace, correlationErrors: settings.correlationErrorRetention };
  const removed = none();
  for (const kind of expiredRowKinds) {
    let deleted: number;
    do {
      deleted = await deleteExpiredBatch(ctx.db, kind, seconds[kind], settings.batchSize);
      removed[kind] += deleted;
    } while (deleted === settings.batchSize);
  }
  return removed;
}

/**
 * Runs `work` unless another instance is running it: on PostgreSQL a transaction of its own holds the housekeeping
 * lock meanwhile (and nothing else: the deletes commit batch by batch on other connections). The embedded database
 * belongs to this process alone and serves one connection, so it needs no lock.
 */
async function whileNoOtherInstance<T>(ctx: HousekeepingContext, work: () => Promise<T>): Promise<T | undefined> {
  if (ctx.database.kind === 'embedded') return work();
  return ctx.db.transaction(async (tx) => ((await tryHousekeepingLock(tx)) ? work() : undefined));
}

/** Removes expired rows every `housekeeping.interval` (the timer does not keep the process alive). */
export function scheduleHousekeeping(ctx: HousekeepingContext): void {
  const timer = setInterval(() => {
    removeExpiredRows(ctx).catch((error: unknown) => {
      ctx.logger.warn('housekeeping: removing expired rows failed', { error: String(error) });
    });
  }, runtimeDefaults.housekeeping.interval * 1000);
  timer.unref();
}
