import { randomUUID } from 'node:crypto';
import { like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { revokedAccessTokens } from '../db/schema/index.js';
import { rowsOf } from '../queries/bulk.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { runtimeDefaults } from './defaults.js';
import { removeExpiredRows } from './housekeeping.js';

const onPostgres = Boolean(loadConfig().databaseUrl);
if (onPostgres) {
  console.log("SKIP the embedded database's vacuum test: PostgreSQL's autovacuum reclaims space on its own schedule");
}

const day = 24 * 60 * 60;
/** An instant `seconds` from now (negative: in the past). */
const from = (seconds: number) => new Date(Date.now() + seconds * 1000);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe.skipIf(onPostgres)('the embedded database after housekeeping', () => {
  const tableSize = async () => {
    const [row] = rowsOf<{ bytes: string }>(
      await ctx.db.execute(sql`select pg_relation_size('revoked_access_tokens') as bytes`),
    );
    return Number(row.bytes);
  };
  const insertTokens = (run: string, expiresAt: Date) =>
    ctx.db
      .insert(revokedAccessTokens)
      .values(Array.from({ length: 4000 }, (_, i) => ({ jti: `${run}-${i}`, expiresAt })));

  it('is vacuumed, so that new rows take the space of the removed ones instead of growing the table', async () => {
    const run = randomUUID().slice(0, 8);
    await insertTokens(`${run}-old`, from(-runtimeDefaults.housekeeping.grace.revokedAccessTokens - day));
    const before = await tableSize();

    expect((await removeExpiredRows(ctx)).removed.revokedAccessTokens).toBe(4000);
    await insertTokens(`${run}-new`, from(3600));

    expect(await tableSize()).toBe(before);
    const left = await ctx.db
      .select()
      .from(revokedAccessTokens)
      .where(like(revokedAccessTokens.jti, `${run}-%`));
    expect(left).toHaveLength(4000);
  });
});
