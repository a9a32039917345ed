import { randomUUID } from 'node:crypto';
import { like, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import type { Db } from '../db/client.js';
import {
  actionTokens,
  auditRecords,
  authorizationCodes,
  connections,
  deviceCodes,
  oneTimeCodes,
  pushedAuthorizationRequests,
  refreshTokens,
  revokedAccessTokens,
  samlRelayStates,
  sessions,
  usedSamlAssertions,
} from '../db/schema/index.js';
import { createLogger } from '../http/logger.js';
import { deleteExpiredBatch, type ExpiredRowKind, HOUSEKEEPING_LOCK } from '../queries/expired-rows.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { createTestUser } from '../test-support/fixtures.js';
import { runtimeDefaults } from './defaults.js';
import { type RemovedRows, removeExpiredRows, scheduleHousekeeping } from './housekeeping.js';

const settings = runtimeDefaults.housekeeping;
const day = 24 * 60 * 60;
/** An instant `seconds` from now (negative: in the past). */
const from = (seconds: number) => new Date(Date.now() + seconds * 1000);

const lines: Array<Record<string, unknown>> = [];
const logger = createLogger('info', (line) => {
  lines.push(JSON.parse(line) as Record<string, unknown>);
});
const housekeepingLines = () => lines.filter((l) => String(l.msg).startsWith('housekeeping:'));

let ctx: TestContext;
let userId: string;
let secondFactors: string[];
let samlConnection: string;

beforeAll(async () => {
  ctx = await createTestContext({ logger });
  userId = (await createTestUser(ctx.db)).id;
  const inserted = await ctx.db
    .insert(connections)
    .values(
      ['one', 'two', 'three'].map((n) => ({ name: `sms-${n}`, connectionType: 'Authentication', pluginType: 'Sms' })),
    )
    .returning({ id: connections.id });
  secondFactors = inserted.map((c) => c.id);
  const [saml] = await ctx.db
    .insert(connections)
    .values({ name: 'saml-idp', connectionType: 'Authentication', pluginType: 'Saml20' })
    .returning({ id: connections.id });
  samlConnection = saml.id;
});
afterAll(() => ctx.close());
afterEach(() => {
  lines.length = 0;
});

const none: RemovedRows = {
  sessions: 0,
  authorizationCodes: 0,
  refreshTokens: 0,
  deviceCodes: 0,
  actionTokens: 0,
  oneTimeCodes: 0,
  usedSamlAssertions: 0,
  samlRelayStates: 0,
  pushedAuthorizationRequests: 0,
  revokedAccessTokens: 0,
  correlationErrors: 0,
};

/** The column each test row is labelled in, as `<run>-<label>`. */
const labels: Record<ExpiredRowKind, [PgTable, PgColumn]> = {
  sessions: [sessions, sessions.acr],
  authorizationCodes: [authorizationCodes, authorizationCodes.codeHash],
  refreshTokens: [refreshTokens, refreshTokens.tokenHash],
  deviceCodes: [deviceCodes, deviceCodes.userCode],
  actionTokens: [actionTokens, actionTokens.tokenHash],
  oneTimeCodes: [oneTimeCodes, oneTimeCodes.codeHash],
  usedSamlAssertions: [usedSamlAssertions, usedSamlAssertions.assertionId],
  samlRelayStates: [samlRelayStates, samlRelayStates.id],
  pushedAuthorizationRequests: [pushedAuthorizationRequests, pushedAuthorizationRequests.requestUriHash],
  revokedAccessTokens: [revokedAccessTokens, revokedAccessTokens.jti],
  correlationErrors: [auditRecords, auditRecords.entityKey],
};

/** The labels of the run's rows that remain, per kind. */
async function remaining(run: string): Promise<Record<ExpiredRowKind, string[]>> {
  const result = {} as Record<ExpiredRowKind, string[]>;
  for (const [kind, [table, column]] of Object.entries(labels) as Array<[ExpiredRowKind, [PgTable, PgColumn]]>) {
    const rows = await ctx.db
      .select({ label: sql<string>`${column}` })
      .from(table)
      .where(like(column, `${run}-%`));
    result[kind] = rows.map((r) => r.label.slice(run.length + 1)).sort();
  }
  return result;
}

/**
 * Rows of every kind: `old` expired a day before its grace ended, `recent` expired a minute ago (within every
 * grace), `live` expires in an hour. Besides: sessions long expired from which a refresh token that can still be
 * used came (`old-with-live-token`) or only a rotated one (`old-with-rotated-token`), a rotated refresh token that
 * has not expired, and an old audit record that is no error.
 */
async function insertRows(run: string): Promise<void> {
  const { grace } = settings;
  const states = { old: (g: number) => -(g + day), recent: () => -60, live: () => 3600 } as const;
  const each = <T>(make: (label: string, expiresAt: Date, index: number) => T, g: number): T[] =>
    Object.entries(states).map(([label, offset], index) => make(`${run}-${label}`, from(offset(g)), index));

  const sessionIds = { live: randomUUID(), rotated: randomUUID() };
  await ctx.db.insert(sessions).values([
    ...each((acr, expiresAt) => ({ userId, authTime: from(-2 * day), acr, expiresAt }), grace.sessions),
    {
      id: sessionIds.live,
      userId,
      authTime: from(-2 * day),
      acr: `${run}-old-with-live-token`,
      expiresAt: from(-day - grace.sessions),
    },
    {
      id: sessionIds.rotated,
      userId,
      authTime: from(-2 * day),
      acr: `${run}-old-with-rotated-token`,
      expiresAt: from(-day - grace.sessions),
    },
  ]);
  const token = (tokenHash: string, expiresAt: Date, more: Partial<typeof refreshTokens.$inferInsert> = {}) => ({
    tokenHash,
    familyId: randomUUID(),
    userId,
    clientId: 'client',
    expiresAt,
    familyExpiresAt: from(300 * day),
    ...more,
  });
  await ctx.db
    .insert(refreshTokens)
    .values([
      ...each((label, expiresAt) => token(label, expiresAt, { rotatedAt: from(-2 * day) }), grace.refreshTokens),
      token(`${run}-live-rotated`, from(3600), { rotatedAt: from(-60) }),
      token(`${run}-of-session`, from(3600), { sessionId: sessionIds.live }),
      token(`${run}-rotated-of-session`, from(3600), { sessionId: sessionIds.rotated, rotatedAt: from(-60) }),
    ]);
  await ctx.db.insert(authorizationCodes).values(
    each(
      (codeHash, expiresAt) => ({
        codeHash,
        clientId: 'client',
        userId,
        redirectUri: 'https://app.example/cb',
        scope: 'openid',
        authTime: from(-2 * day),
        expiresAt,
        usedAt: from(-2 * day),
      }),
      grace.authorizationCodes,
    ),
  );
  await ctx.db.insert(deviceCodes).values(
    each(
      (userCode, expiresAt) => ({
        deviceCodeHash: `hash-${userCode}`,
        userCode,
        clientId: 'client',
        scope: '',
        expiresAt,
      }),
      grace.deviceCodes,
    ),
  );
  await ctx.db
    .insert(actionTokens)
    .values(each((tokenHash, expiresAt) => ({ tokenHash, kind: 'reset', userId, expiresAt }), grace.actionTokens));
  const owner = await createTestUser(ctx.db);
  await ctx.db
    .insert(oneTimeCodes)
    .values(
      each(
        (codeHash, expiresAt, index) => ({ userId: owner.id, connectionId: secondFactors[index], codeHash, expiresAt }),
        grace.oneTimeCodes,
      ),
    );
  await ctx.db
    .insert(usedSamlAssertions)
    .values(
      each(
        (assertionId, expiresAt) => ({ connectionId: samlConnection, assertionId, expiresAt }),
        grace.usedSamlAssertions,
      ),
    );
  await ctx.db
    .insert(samlRelayStates)
    .values(each((id, expiresAt) => ({ id, sealed: 'sealed', expiresAt }), grace.samlRelayStates));
  await ctx.db
    .insert(pushedAuthorizationRequests)
    .values(
      each(
        (requestUriHash, expiresAt) => ({ requestUriHash, clientId: 'client', params: [], expiresAt }),
        grace.pushedAuthorizationRequests,
      ),
    );
  await ctx.db
    .insert(revokedAccessTokens)
    .values(each((jti, expiresAt) => ({ jti, expiresAt }), grace.revokedAccessTokens));
  const record = (entityKey: string, at: Date, operation = 'error', entityType = 'request') => ({
    at,
    actor: 'anonymous',
    operation,
    entityType,
    entityKey,
    requestId: entityKey,
    changes: { status: 400 },
  });
  await ctx.db
    .insert(auditRecords)
    .values([
      record(`${run}-old`, from(-settings.correlationErrorRetention - day)),
      record(`${run}-recent`, from(-day)),
      record(`${run}-not-an-error`, from(-settings.correlationErrorRetention - day), 'update', 'users'),
    ]);
}

describe('removal of expired rows', () => {
  it('removes only the rows whose grace has passed, counts them per kind and logs the counts once', async () => {
    const run = randomUUID().slice(0, 8);
    await insertRows(run);

    const result = await removeExpiredRows(ctx);

    const removed: RemovedRows = { ...none, sessions: 2 };
    for (const kind of Object.keys(none) as ExpiredRowKind[]) if (kind !== 'sessions') removed[kind] = 1;
    expect(result).toEqual({ skipped: false, removed });
    expect(await remaining(run)).toEqual({
      sessions: ['live', 'old-with-live-token', 'recent'],
      authorizationCodes: ['live', 'recent'],
      refreshTokens: ['live', 'live-rotated', 'of-session', 'recent', 'rotated-of-session'],
      deviceCodes: ['live', 'recent'],
      actionTokens: ['live', 'recent'],
      oneTimeCodes: ['live', 'recent'],
      usedSamlAssertions: ['live', 'recent'],
      samlRelayStates: ['live', 'recent'],
      pushedAuthorizationRequests: ['live', 'recent'],
      revokedAccessTokens: ['live', 'recent'],
      correlationErrors: ['not-an-error', 'recent'],
    });
    expect(housekeepingLines()).toEqual([
      expect.objectContaining({ level: 'info', msg: 'housekeeping: expired rows removed', removed }),
    ]);
  });

  it('removes nothing and logs nothing when nothing has expired long enough', async () => {
    expect(await removeExpiredRows(ctx)).toEqual({ skipped: false, removed: none });
    expect(housekeepingLines()).toEqual([]);
  });

  it('deletes at most a batch per statement and removes a larger backlog batch after batch', async () => {
    const run = randomUUID().slice(0, 8);
    const expiredAt = from(-settings.grace.revokedAccessTokens - day);
    await ctx.db
      .insert(revokedAccessTokens)
      .values(Array.from({ length: 23 }, (_, i) => ({ jti: `${run}-${i}`, expiresAt: expiredAt })));
    await ctx.db.insert(actionTokens).values(
      Array.from({ length: 12 }, (_, i) => ({
        tokenHash: `${run}-${i}`,
        kind: 'reset',
        userId,
        expiresAt: from(-settings.grace.actionTokens - day),
      })),
    );

    expect(await deleteExpiredBatch(ctx.db, 'revokedAccessTokens', settings.grace.revokedAccessTokens, 5)).toBe(5);
    const result = await removeExpiredRows(ctx, { ...settings, batchSize: 5 });

    expect(result).toEqual({ skipped: false, removed: { ...none, revokedAccessTokens: 18, actionTokens: 12 } });
    const left = await remaining(run);
    expect([left.revokedAccessTokens, left.actionTokens]).toEqual([[], []]);
  });
});

describe('the housekeeping schedule', () => {
  afterEach(() => {
    vi.clearAllTimers();
    vi.useRealTimers();
  });

  /** Resolves with the first housekeeping log line written from now on. */
  function nextHousekeepingLine(): Promise<Record<string, unknown>> {
    const seen = lines.length;
    return new Promise((resolve) => {
      const check = () => {
        const line = lines.slice(seen).find((l) => String(l.msg).startsWith('housekeeping:'));
        if (line) resolve(line);
        else setTimeout(check, 20);
      };
      check();
    });
  }

  it('removes expired rows once an interval has passed', async () => {
    const run = randomUUID().slice(0, 8);
    await ctx.db
      .insert(revokedAccessTokens)
      .values({ jti: `${run}-old`, expiresAt: from(-settings.grace.revokedAccessTokens - day) });
    vi.useFakeTimers({ toFake: ['setInterval'] });
    scheduleHousekeeping(ctx);
    const line = nextHousekeepingLine();

    vi.advanceTimersByTime(settings.interval * 1000);

    expect(await line).toMatchObject({
      msg: 'housekeeping: expired rows removed',
      removed: { revokedAccessTokens: 1 },
    });
    expect((await remaining(run)).revokedAccessTokens).toEqual([]);
  });

  it('logs a warning when a run fails', async () => {
    const failing = {
      db: { execute: () => Promise.reject(new Error('connection refused')) } as unknown as Db,
      database: { ...ctx.database, kind: 'embedded' as const },
      logger,
    };
    vi.useFakeTimers({ toFake: ['setInterval'] });
    scheduleHousekeeping(failing);
    const line = nextHousekeepingLine();

    vi.advanceTimersByTime(settings.interval * 1000);

    expect(await line).toMatchObject({
      level: 'warn',
      msg: 'housekeeping: removing expired rows failed',
      error: 'Error: connection refused',
    });
  });
});

const onPostgres = Boolean(loadConfig().databaseUrl);
if (!onPostgres) {
  console.log(
    'SKIP housekeeping lock tests: the embedded database belongs to one process and needs no lock; set DATABASE_URL to run them',
  );
}

describe.skipIf(!onPostgres)('one instance at a time (PostgreSQL)', () => {
  async function insertBacklog(run: string, count: number): Promise<void> {
    const expiresAt = from(-settings.grace.revokedAccessTokens - day);
    await ctx.db
      .insert(revokedAccessTokens)
      .values(Array.from({ length: count }, (_, i) => ({ jti: `${run}-${i}`, expiresAt })));
  }

  it('skips while another transaction holds the housekeeping lock, and removes once it is released', async () => {
    const run = randomUUID().slice(0, 8);
    await insertBacklog(run, 3);

    const whileHeld = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${HOUSEKEEPING_LOCK})`);
      return removeExpiredRows(ctx);
    });

    expect(whileHeld).toEqual({ skipped: true, removed: none });
    expect((await remaining(run)).revokedAccessTokens).toHaveLength(3);
    expect(await removeExpiredRows(ctx)).toEqual({ skipped: false, removed: { ...none, revokedAccessTokens: 3 } });
  });

  it('of two concurrent runs, one removes the whole backlog and the other skips', async () => {
    const run = randomUUID().slice(0, 8);
    await insertBacklog(run, 400);

    const results = await Promise.all([
      removeExpiredRows(ctx, { ...settings, batchSize: 10 }),
      removeExpiredRows(ctx, { ...settings, batchSize: 10 }),
    ]);

    expect(results.map((r) => r.skipped).sort()).toEqual([false, true]);
    expect(results.find((r) => r.skipped)?.removed).toEqual(none);
    expect(results.find((r) => !r.skipped)?.removed).toEqual({ ...none, revokedAccessTokens: 400 });
    expect((await remaining(run)).revokedAccessTokens).toEqual([]);
  });
});
