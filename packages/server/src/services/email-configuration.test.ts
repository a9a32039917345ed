import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords, emailServers } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { emailConfigurationService } from './email-configuration.js';

const by = { actor: 'tester', requestId: 'req-mail' };

let ctx: TestContext;
let service: ReturnType<typeof emailConfigurationService>;

beforeAll(async () => {
  ctx = await createTestContext();
  service = emailConfigurationService(ctx.db, ctx.box);
});
afterAll(() => ctx.close());

const stored = async (name: string) => (await ctx.db.select().from(emailServers).where(eq(emailServers.name, name)))[0];

describe('emailConfigurationService', () => {
  it('keeps the password only sealed, answers and audits it never', async () => {
    const answer = await service.createServer(
      { name: 'main', host: 'smtp.example.org', userName: 'u', password: 'Pl41n-secret' },
      by,
    );
    expect(JSON.stringify(answer)).not.toContain('Pl41n');
    const row = await stored('main');
    expect(row.data.password).toBeUndefined();
    expect(String(row.data.passwordSealed)).toMatch(/^v1\./);
    expect(JSON.stringify(row.data)).not.toContain('Pl41n');
    const audits = await ctx.db.select().from(auditRecords).where(eq(auditRecords.requestId, 'req-mail'));
    expect(audits.map((a) => [a.operation, a.entityType, a.entityKey])).toEqual([['create', 'e-mail server', 'main']]);
    expect(audits[0].changes).toMatchObject({ password: '***', host: 'smtp.example.org' });
  });

  it('opens the password of the default server for delivery, and keeps it on an update without one', async () => {
    await service.updateServer({ name: 'main', port: 2525 }, by);
    expect(await service.defaultServer()).toEqual({
      host: 'smtp.example.org',
      port: 2525,
      enableSsl: false,
      useDefaultCredentials: false,
      userName: 'u',
      password: 'Pl41n-secret',
      deliveryMethod: 'Network',
      pickupDirectoryLocation: null,
      fromAddress: null,
    });
  });

  it('removes the password on an update with null', async () => {
    await service.updateServer({ name: 'main', password: null }, by);
    expect((await service.defaultServer())?.password).toBeNull();
    expect((await stored('main')).data.passwordSealed).toBeNull();
  });

  it('keeps one default: a new default server clears the flag of the other', async () => {
    await service.createServer({ name: 'second', host: 'b.example.org', default: true }, by);
    expect((await stored('main')).data.default).toBe(false);
    expect((await service.defaultServer())?.host).toBe('b.example.org');
  });
});
