import { hash } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connections, users } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { createTestUser } from '../test-support/fixtures.js';
import { checkUserPassword, maxFailedAttempts, passwordActive } from './lockout.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const userRow = async (id: string) => (await ctx.db.select().from(users).where(eq(users.id, id)))[0];

describe('checkUserPassword', () => {
  it('finds the user by userName or e-mail, ignoring case', async () => {
    const user = await createTestUser(ctx.db, { userName: 'Alice', email: 'Alice@Example.org', password: 'alice-pw' });
    for (const name of ['alice', 'ALICE', 'alice@example.org']) {
      const check = await checkUserPassword(ctx.db, name, 'alice-pw', 3);
      expect(check.ok && check.user.id).toBe(user.id);
    }
    expect(await checkUserPassword(ctx.db, 'nobody', 'alice-pw', 3)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('counts failures, resets the count on success, and locks at the maximum', async () => {
    const user = await createTestUser(ctx.db, { password: 'bob-pw' });
    expect(await checkUserPassword(ctx.db, user.userName, 'nope', 3)).toEqual({ ok: false, reason: 'bad_password' });
    expect(await checkUserPassword(ctx.db, user.userName, 'nope', 3)).toEqual({ ok: false, reason: 'bad_password' });
    expect((await userRow(user.id)).failedLoginCount).toBe(2);
    expect((await checkUserPassword(ctx.db, user.userName, 'bob-pw', 3)).ok).toBe(true);
    expect((await userRow(user.id)).failedLoginCount).toBe(0);

    for (let i = 0; i < 3; i++) await checkUserPassword(ctx.db, user.userName, 'nope', 3);
    const locked = await userRow(user.id);
    expect(locked).toMatchObject({ locked: true, failedLoginCount: 3 });
    expect(locked.lockedAt).toBeInstanceOf(Date);
    expect(await checkUserPassword(ctx.db, user.userName, 'bob-pw', 3)).toEqual({ ok: false, reason: 'locked' });
    expect((await userRow(user.id)).failedLoginCount).toBe(3);
  });

  it('refuses an inactive user and a user without a password', async () => {
    const inactive = await createTestUser(ctx.db, { password: 'pw', active: false });
    expect(await checkUserPassword(ctx.db, inactive.userName, 'pw', 3)).toEqual({ ok: false, reason: 'inactive' });
    const passwordless = await createTestUser(ctx.db);
    expect(await checkUserPassword(ctx.db, passwordless.userName, '', 3)).toEqual({
      ok: false,
      reason: 'bad_password',
    });
  });

  it('answers password_not_active only for the right password', async () => {
    const user = await createTestUser(ctx.db, { password: 'pw-reset', forceResetPassword: true });
    expect(await checkUserPassword(ctx.db, user.userName, 'pw-reset', 3)).toEqual({
      ok: false,
      reason: 'password_not_active',
    });
    expect(await checkUserPassword(ctx.db, user.userName, 'other', 3)).toEqual({ ok: false, reason: 'bad_password' });
  });

  it('rehashes an outdated hash after a successful check', async () => {
    const user = await createTestUser(ctx.db);
    const old = await hash('old-params', { timeCost: 3, memoryCost: 8192 });
    await ctx.db.update(users).set({ passwordHash: old }).where(eq(users.id, user.id));
    expect((await checkUserPassword(ctx.db, user.userName, 'old-params', 3)).ok).toBe(true);
    expect((await userRow(user.id)).passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('passwordActive', () => {
  it('is false when a reset is forced or the password has expired', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(passwordActive({ forceResetPassword: false, passwordExpiresAt: null }, now)).toBe(true);
    expect(passwordActive({ forceResetPassword: true, passwordExpiresAt: null }, now)).toBe(false);
    expect(
      passwordActive({ forceResetPassword: false, passwordExpiresAt: new Date('2029-12-31T23:59:59Z') }, now),
    ).toBe(false);
    expect(
      passwordActive({ forceResetPassword: false, passwordExpiresAt: new Date('2030-01-01T00:00:01Z') }, now),
    ).toBe(true);
  });
});

describe('maxFailedAttempts', () => {
  const setMaximum = (name: string, value: unknown) =>
    ctx.db
      .update(connections)
      .set({ configuration: { maximumFailedAttempts: value } })
      .where(sql`lower(${connections.name}) = lower(${name})`);

  it("reads the UsernamePassword connection's maximumFailedAttempts, 10 when unset or invalid", async () => {
    expect(await maxFailedAttempts(ctx.db)).toBe(10);
    await setMaximum('UsernamePassword', 4);
    expect(await maxFailedAttempts(ctx.db)).toBe(4);
    await setMaximum('UsernamePassword', 'many');
    expect(await maxFailedAttempts(ctx.db)).toBe(10);
    await setMaximum('UsernamePassword', 10);
  });

  it('uses the connection listed last among those named', async () => {
    await ctx.db.insert(connections).values({
      name: 'Staff',
      connectionType: 'Authentication',
      pluginType: 'UsernamePassword',
      configuration: { maximumFailedAttempts: 3 },
    });
    expect(await maxFailedAttempts(ctx.db, ['UsernamePassword', 'staff'])).toBe(3);
    expect(await maxFailedAttempts(ctx.db, ['Staff', 'UsernamePassword'])).toBe(10);
    expect(await maxFailedAttempts(ctx.db, ['NoSuchConnection'])).toBe(10);
  });
});
