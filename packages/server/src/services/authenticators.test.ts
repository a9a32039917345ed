import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords, authenticators, connections, organizations, users } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { authenticatorService, isBase32Secret } from './authenticators.js';

const by = { actor: 'tester', requestId: 'req-3' };
const missingUser = '00000000-0000-4000-8000-000000000000';
const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

let ctx: TestContext;
let service: ReturnType<typeof authenticatorService>;
let alice: string;
let totp: string;

async function addUser(userName: string): Promise<string> {
  const [root] = await ctx.db.select().from(organizations).where(eq(organizations.name, 'Root'));
  const [row] = await ctx.db.insert(users).values({ userName, organizationId: root.id }).returning();
  return row.id;
}

async function addConnection(name: string, connectionType: string, pluginType: string, profile?: boolean) {
  const configuration = profile === undefined ? {} : { enableAuthenticatorFromMyProfile: profile };
  const [row] = await ctx.db
    .insert(connections)
    .values({ name, connectionType, pluginType, configuration })
    .returning();
  return row.id;
}

const rowOf = async (userId: string, connectionId: string) =>
  (
    await ctx.db
      .select()
      .from(authenticators)
      .where(and(eq(authenticators.userId, userId), eq(authenticators.connectionId, connectionId)))
  )[0];

beforeAll(async () => {
  ctx = await createTestContext();
  service = authenticatorService(ctx.db, ctx.box);
  alice = await addUser('alice');
  totp = await addConnection('Totp', 'SecondFactor', 'Totp', true);
  await addConnection('AppOtp', 'SecondFactor', 'Totp', true);
  await addConnection('SmsOtp', 'SecondFactor', 'SmsOtp', false);
  await addConnection('MailOtp', 'SecondFactor', 'EmailOtp');
  await addConnection('Portal', 'Protocol', 'OAuth20', true);
});

afterAll(async () => {
  await ctx?.close();
});

describe('isBase32Secret', () => {
  it('accepts RFC 4648 base32 of at least 16 characters, padded or not', () => {
    expect(isBase32Secret('JBSWY3DPEHPK3PXP')).toBe(true);
    expect(isBase32Secret(secret)).toBe(true);
    expect(isBase32Secret('JBSWY3DPEHPK3PXPJB======')).toBe(true);
    expect(isBase32Secret('JBSWY3DPEHPK3PXPJB')).toBe(true);
  });

  it('refuses other alphabets, short secrets and bad padding', () => {
    expect(isBase32Secret('JBSWY3DPEHPK3PX')).toBe(false);
    expect(isBase32Secret('jbswy3dpehpk3pxp')).toBe(false);
    expect(isBase32Secret('JBSWY3DPEHPK3PX1')).toBe(false);
    expect(isBase32Secret('JBSWY3DP EHPK3PXP')).toBe(false);
    expect(isBase32Secret('JBSWY3DPEHPK3PXPJB==')).toBe(false);
    expect(isBase32Secret('JBSWY3DPEHPK3PXPJBS')).toBe(false);
    expect(isBase32Secret('JBSWY3DP=EHPK3PXP')).toBe(false);
    expect(isBase32Secret('JBSWY3DPEHPK3PXPJB==============')).toBe(false);
    expect(isBase32Secret('JBSWY3DPEHPK3PXP========')).toBe(false);
  });
});

describe('authenticatorService', () => {
  it('lists the profile-enabled second-factor connections, none enrolled at first', async () => {
    expect(await service.list(alice)).toEqual([
      { connectionName: 'AppOtp', pluginType: 'Totp', enrolled: false, enrolledAt: null },
      { connectionName: 'Totp', pluginType: 'Totp', enrolled: false, enrolledAt: null },
    ]);
  });

  it('onboards with the secret sealed at rest, shows the enrolment and records it without the secret', async () => {
    await service.onboard(alice, 'totp', secret, by);
    const row = await rowOf(alice, totp);
    expect(row.secretEnc).not.toContain(secret);
    expect(row.secretEnc.startsWith('v1.')).toBe(true);
    expect(ctx.box.open(row.secretEnc)).toBe(secret);
    expect(await service.list(alice)).toEqual([
      { connectionName: 'AppOtp', pluginType: 'Totp', enrolled: false, enrolledAt: null },
      { connectionName: 'Totp', pluginType: 'Totp', enrolled: true, enrolledAt: row.enrolledAt.toISOString() },
    ]);
    const records = await ctx.db.select().from(auditRecords).where(eq(auditRecords.entityType, 'authenticator'));
    expect(records.map((r) => [r.actor, r.operation, r.entityKey, r.changes, r.requestId])).toEqual([
      ['tester', 'create', `${alice}/Totp`, { userId: alice, connectionName: 'Totp' }, 'req-3'],
    ]);
    expect(JSON.stringify(records)).not.toContain(secret);
  });

  it('replaces an earlier secret on a second onboarding', async () => {
    await service.onboard(alice, 'Totp', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', by);
    expect(ctx.box.open((await rowOf(alice, totp)).secretEnc)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    const operations = await ctx.db
      .select({ operation: auditRecords.operation })
      .from(auditRecords)
      .where(eq(auditRecords.entityType, 'authenticator'));
    expect(operations.map((r) => r.operation)).toEqual(['create', 'update']);
  });

  it('refuses a secret that is not base32 with 400 and keeps the stored one', async () => {
    await expect(service.onboard(alice, 'Totp', 'not-a-secret!', by)).rejects.toMatchObject({
      code: 'invalid_request',
      status: 400,
    });
    expect(ctx.box.open((await rowOf(alice, totp)).secretEnc)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });

  it('answers 404 for a missing user or a connection that is missing or not second-factor', async () => {
    await expect(service.list(missingUser)).rejects.toMatchObject({ status: 404 });
    await expect(service.onboard(missingUser, 'Totp', secret, by)).rejects.toMatchObject({ status: 404 });
    await expect(service.onboard(alice, 'Nowhere', secret, by)).rejects.toMatchObject({ status: 404 });
    await expect(service.onboard(alice, 'Portal', secret, by)).rejects.toMatchObject({ status: 404 });
    await expect(service.reset(missingUser, 'Totp', by)).rejects.toMatchObject({ status: 404 });
    await expect(service.reset(alice, 'Portal', by)).rejects.toMatchObject({
      status: 404,
      message: 'second-factor connection Portal does not exist',
    });
  });

  it('resets the enrolment, and succeeds also when none is enrolled', async () => {
    await service.reset(alice, 'Totp', by);
    expect(await rowOf(alice, totp)).toBeUndefined();
    await expect(service.reset(alice, 'Totp', by)).resolves.toBeUndefined();
    await expect(service.reset(alice, 'SmsOtp', by)).resolves.toBeUndefined();
    const operations = await ctx.db
      .select({ operation: auditRecords.operation })
      .from(auditRecords)
      .where(eq(auditRecords.entityType, 'authenticator'));
    expect(operations.map((r) => r.operation)).toEqual(['create', 'update', 'delete']);
  });
});
