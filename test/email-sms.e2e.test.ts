import { beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiBase, createUserWithRole, type Json, unique, userApi } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { serverPerFile } from './helpers/fixtures.js';

const servers = `${apiBase}/emailconfiguration/emailservers`;
const emailTemplates = `${apiBase}/emailconfiguration/emailtemplates`;
const gateways = `${apiBase}/smsconfiguration/smsgateway`;
const smsTemplates = `${apiBase}/smsconfiguration/smstemplate`;
const ctx = serverPerFile();

let observer: Api;
beforeAll(async () => {
  const name = unique('observer');
  await createUserWithRole(ctx.admin, name, 'Observer');
  observer = await userApi(ctx.server.url, name);
});

async function ok(response: Promise<{ status: number; body: unknown }>): Promise<Json> {
  const answer = await response;
  if (answer.status !== 200) throw new Error(`expected 200: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as Json;
}

const smtp = (name: string, extra: Json = {}) => ({
  name,
  host: 'smtp.example.org',
  port: 587,
  enableSsl: true,
  userName: 'mailer',
  password: 'S3cret-smtp!',
  fromAddress: 'idsvc@example.org',
  ...extra,
});

const byName = (items: unknown, name: string) => (items as Json[]).find((item) => item.name === name);

describe('EmailConfiguration e-mail servers', () => {
  const first = unique('smtpa');
  const second = unique('smtpb');

  it('creates a server, answers it without the password, and makes the first server the default', async () => {
    const response = await ctx.admin.post(servers, { body: smtp(first) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name: first,
      host: 'smtp.example.org',
      port: 587,
      default: true,
      enableSsl: true,
      useDefaultCredentials: false,
      userName: 'mailer',
      deliveryMethod: 'Network',
      pickupDirectoryLocation: null,
      fromAddress: 'idsvc@example.org',
    });
  });

  it('answers 409 for a name that exists (in another case)', async () => {
    expectError(await ctx.admin.post(servers, { body: smtp(first.toUpperCase()) }), 409, 'conflict');
  });

  it('answers 400 for a Network server without host, and for a pickup directory outside the data dir', async () => {
    expectError(await ctx.admin.post(servers, { body: { name: unique('nohost') } }), 400, 'invalid_request');
    const outside = {
      name: unique('pickup'),
      deliveryMethod: 'SpecifiedPickupDirectory',
      pickupDirectoryLocation: '/tmp',
    };
    expectError(await ctx.admin.post(servers, { body: outside }), 400, 'invalid_request');
    expectError(await ctx.admin.post(servers, { body: { name: unique('x'), port: 'x' } }), 400, 'invalid_request');
  });

  it('lists servers for an Observer, without passwords, sorted by the requested field', async () => {
    await ok(ctx.admin.post(servers, { body: smtp(second, { port: 2525, enableSsl: false, password: undefined }) }));
    const response = await observer.get(servers, { query: { sortBy: 'port', sortOrder: 'Descending' } });
    expect(response.status).toBe(200);
    const mine = (response.body as unknown as Json[]).filter((s) => s.name === first || s.name === second);
    expect(mine.map((s) => [s.name, s.port])).toEqual([
      [second, 2525],
      [first, 587],
    ]);
    expect(JSON.stringify(response.body)).not.toContain('S3cret');
    expect((response.body as unknown as Json[]).every((s) => !('password' in s))).toBe(true);
  });

  it('updates a server; making it the default unsets the other; absent fields keep their values', async () => {
    const response = await ctx.admin.put(servers, { body: { name: second, default: true, host: 'mail.example.org' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: second, default: true, host: 'mail.example.org', port: 2525 });
    const list = await ctx.admin.get(servers);
    expect(byName(list.body, first)).toMatchObject({ default: false, userName: 'mailer' });
    expect((list.body as unknown as Json[]).filter((s) => s.default).map((s) => s.name)).toEqual([second]);
  });

  it('answers 404 when updating a server that does not exist', async () => {
    expectError(await ctx.admin.put(servers, { body: smtp(unique('missing')) }), 404, 'not_found');
  });

  it('refuses writes to an Observer with 403', async () => {
    expectError(await observer.post(servers, { body: smtp(unique('obs')) }), 403, 'forbidden');
  });

  it('deletes a server, then answers 404 for it', async () => {
    expect((await ctx.admin.delete(`${servers}/${first}`)).status).toBe(200);
    expect(byName((await ctx.admin.get(servers)).body, first)).toBeUndefined();
    expectError(await ctx.admin.delete(`${servers}/${first}`), 404, 'not_found');
  });
});

describe('EmailConfiguration e-mail templates', () => {
  const name = unique('welcome');

  it('lists the seeded ResetPassword and Offboard templates to an Observer', async () => {
    const response = await observer.get(emailTemplates);
    expect(response.status).toBe(200);
    expect(byName(response.body, 'ResetPassword')).toMatchObject({ resourceKey: 'ResetPassword', isHtml: false });
    expect(String(byName(response.body, 'ResetPassword')?.body)).toContain('<%=LINK%>');
    expect(byName(response.body, 'Offboard')).toMatchObject({ subject: 'Confirm closing your account' });
  });

  it('creates a template and answers 409 for its name again', async () => {
    const body = { name, resourceKey: 'Welcome', subject: 'Hi <%=USERNAME%>', body: '<p>Hi</p>', isHtml: true };
    const response = await ctx.admin.post(emailTemplates, { body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(body);
    expectError(await ctx.admin.post(emailTemplates, { body }), 409, 'conflict');
  });

  it('answers 400 for a template without subject', async () => {
    expectError(
      await ctx.admin.post(emailTemplates, { body: { name: unique('t'), body: 'x' } }),
      400,
      'invalid_request',
    );
  });

  it('updates a template; answers 404 for one that does not exist', async () => {
    const response = await ctx.admin.put(emailTemplates, { body: { name, subject: 'Changed', body: 'text' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ name, resourceKey: 'Welcome', subject: 'Changed', body: 'text', isHtml: true });
    const list = await ctx.admin.get(emailTemplates, { query: { sortBy: 'resourceKey' } });
    expect(byName(list.body, name)).toMatchObject({ subject: 'Changed' });
    const missing = { name: unique('missing'), subject: 's', body: 'b' };
    expectError(await ctx.admin.put(emailTemplates, { body: missing }), 404, 'not_found');
  });
});

describe('SmsConfiguration SMS templates', () => {
  const name = unique('otp');

  it('lists the seeded DefaultSMSOTPCodeTemplate', async () => {
    const response = await ctx.admin.get(smsTemplates);
    expect(response.status).toBe(200);
    expect(byName(response.body, 'DefaultSMSOTPCodeTemplate')).toEqual({
      name: 'DefaultSMSOTPCodeTemplate',
      content: 'Your code is <%=SMSTEXT%>',
    });
  });

  it('creates a template, answers 409 for its name again and 400 without content', async () => {
    const body = { name, content: 'Code <%=SMSTEXT%> for <%=SMSNUMBER%>' };
    expect(await ok(ctx.admin.post(smsTemplates, { body }))).toEqual(body);
    expectError(await ctx.admin.post(smsTemplates, { body }), 409, 'conflict');
    expectError(await ctx.admin.post(smsTemplates, { body: { name: unique('t') } }), 400, 'invalid_request');
  });

  it('updates a template; answers 404 for one that does not exist', async () => {
    expect(await ok(ctx.admin.put(smsTemplates, { body: { name, content: 'New <%=SMSTEXT%>' } }))).toEqual({
      name,
      content: 'New <%=SMSTEXT%>',
    });
    expectError(await ctx.admin.put(smsTemplates, { body: { name: unique('m'), content: 'x' } }), 404, 'not_found');
  });
});

describe('SmsConfiguration SMS gateways', () => {
  const template = unique('gwtpl');
  const http = unique('http');
  const file = unique('file');

  beforeAll(async () => {
    await ok(ctx.admin.post(smsTemplates, { body: { name: template, content: '<%=SMSTEXT%>' } }));
  });

  it('creates an Http gateway without answering its password, the first one the default', async () => {
    const body = {
      name: http,
      userName: 'acct',
      password: 'S3cret-sms!',
      providerType: 'Http',
      smsTemplateName: template,
      url: 'http://127.0.0.1:9/send',
      bodyTemplate: 'to=<%=SMSNUMBER%>&text=<%=SMSTEXT%>',
    };
    const response = await ctx.admin.post(gateways, { body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name: http,
      userName: 'acct',
      providerType: 'Http',
      isDefault: true,
      smsTemplateName: template,
      url: 'http://127.0.0.1:9/send',
      bodyTemplate: 'to=<%=SMSNUMBER%>&text=<%=SMSTEXT%>',
      fileName: null,
    });
  });

  it('answers 409 for a name that exists', async () => {
    expectError(
      await ctx.admin.post(gateways, { body: { name: http, providerType: 'File', fileName: 'x.log' } }),
      409,
      'conflict',
    );
  });

  it('answers 400 for a template that does not exist, an Http gateway without url, an unknown providerType', async () => {
    const missingTemplate = {
      name: unique('g'),
      providerType: 'File',
      fileName: 'a.log',
      smsTemplateName: unique('no'),
    };
    expectError(await ctx.admin.post(gateways, { body: missingTemplate }), 400, 'invalid_request');
    expectError(
      await ctx.admin.post(gateways, { body: { name: unique('g'), providerType: 'Http' } }),
      400,
      'invalid_request',
    );
    expectError(
      await ctx.admin.post(gateways, { body: { name: unique('g'), providerType: 'Pigeon' } }),
      400,
      'invalid_request',
    );
    const escaping = { name: unique('g'), providerType: 'File', fileName: '../../x.log' };
    expectError(await ctx.admin.post(gateways, { body: escaping }), 400, 'invalid_request');
  });

  it('lists gateways sorted by userName; a new default unsets the other', async () => {
    await ok(
      ctx.admin.post(gateways, {
        body: { name: file, userName: 'zz', providerType: 'File', fileName: 'sms.log', isDefault: true },
      }),
    );
    const response = await observer.get(gateways, { query: { sortBy: 'userName', sortOrder: 'Descending' } });
    expect(response.status).toBe(200);
    const mine = (response.body as unknown as Json[]).filter((g) => g.name === http || g.name === file);
    expect(mine.map((g) => [g.name, g.isDefault])).toEqual([
      [file, true],
      [http, false],
    ]);
    expect(JSON.stringify(response.body)).not.toContain('S3cret');
  });

  it('updates a gateway; answers 404 for one that does not exist', async () => {
    const response = await ctx.admin.put(gateways, { body: { name: http, providerType: 'Http', userName: 'other' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: http, userName: 'other', url: 'http://127.0.0.1:9/send' });
    const missing = { name: unique('missing'), providerType: 'File', fileName: 'a.log' };
    expectError(await ctx.admin.put(gateways, { body: missing }), 404, 'not_found');
  });

  it('refuses with 409 to delete a template a gateway uses, and deletes it once unused', async () => {
    expectError(await ctx.admin.delete(`${smsTemplates}/${template}`), 409, 'conflict');
    expect((await ctx.admin.delete(`${gateways}/${http}`)).status).toBe(200);
    expectError(await ctx.admin.delete(`${gateways}/${http}`), 404, 'not_found');
    expect((await ctx.admin.delete(`${smsTemplates}/${template}`)).status).toBe(200);
    expectError(await ctx.admin.delete(`${smsTemplates}/${template}`), 404, 'not_found');
  });
});
