import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords, smsGateways } from '../db/schema/index.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { smsConfigurationService } from './sms-configuration.js';

const by = { actor: 'tester', requestId: 'req-sms' };

let ctx: TestContext;
let service: ReturnType<typeof smsConfigurationService>;

beforeAll(async () => {
  ctx = await createTestContext();
  service = smsConfigurationService(ctx.db, ctx.box);
});
afterAll(() => ctx.close());

describe('smsConfigurationService', () => {
  it('keeps the password only sealed and opens it for the default gateway', async () => {
    const answer = await service.createGateway(
      {
        name: 'gw',
        providerType: 'Http',
        url: 'https://sms.example.org/send',
        userName: 'acct',
        password: 'Gw-s3cret',
      },
      by,
    );
    expect(answer).toMatchObject({ name: 'gw', isDefault: true, smsTemplateName: null });
    expect(JSON.stringify(answer)).not.toContain('Gw-s3cret');
    const [row] = await ctx.db.select().from(smsGateways).where(eq(smsGateways.name, 'gw'));
    expect(JSON.stringify(row.data)).not.toContain('Gw-s3cret');
    expect((await service.defaultGateway())?.settings.password).toBe('Gw-s3cret');
    const [audit] = await ctx.db.select().from(auditRecords).where(eq(auditRecords.requestId, 'req-sms'));
    expect(audit.changes).toMatchObject({ password: '***', userName: 'acct' });
  });

  it('finds the seeded DefaultSMSOTPCodeTemplate', async () => {
    expect(await service.template('defaultsmsotpcodetemplate')).toEqual({
      name: 'DefaultSMSOTPCodeTemplate',
      content: 'Your code is <%=SMSTEXT%>',
    });
  });

  it('refuses a gateway url that is not http or https', async () => {
    await expect(
      service.createGateway({ name: 'bad', providerType: 'Http', url: 'file:///etc/passwd' }, by),
    ).rejects.toMatchObject({ code: 'invalid_request', message: 'url must be an http or https address' });
  });
});
