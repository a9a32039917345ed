import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiBase, type Json, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, serverPerFile, unknownGuid } from './helpers/fixtures.js';
import { type Mailbox, type SmsSink, startMailbox, startSmsSink } from './helpers/mailbox.js';

const communication = `${apiBase}/communication`;
// The data dir is known here so that the pickup directory and the SMS file can be read.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idsvc-e2e-comm-'));
const ctx = serverPerFile({ dataDir });

let mailbox: Mailbox;
let sink: SmsSink;
beforeAll(async () => {
  mailbox = await startMailbox();
  sink = await startSmsSink();
});
afterAll(async () => {
  await mailbox?.close();
  await sink?.close();
});

const smtpServer = (name: string, extra: Json = {}) => ({
  name,
  host: '127.0.0.1',
  port: mailbox.port,
  userName: 'mailer',
  password: 'Smtp-pa55',
  fromAddress: 'idsvc@example.org',
  ...extra,
});

async function newUser(extra: Json = {}) {
  const userName = unique('mailee');
  return (await created(ctx.admin, 'users', {
    userName,
    email: `${userName}@example.org`,
    displayName: 'Jane <Doe>',
    phoneNumber: '+31612345678',
    claims: [{ type: 'given_name', value: 'Jane' }],
    ...extra,
  })) as Json & { id: string; userName: string; email: string };
}

describe('before any default server or gateway exists', () => {
  it('Communication_SendEmail answers 400 (mail not sent) with no default e-mail server', async () => {
    const user = await newUser();
    const response = await ctx.admin.post(`${communication}/${user.id}/ResetPassword`);
    expectError(response, 400, 'invalid_request');
    expect((response.body as Json).message).toBe('the mail was not sent: no e-mail server is the default');
  });

  it('Communication_SendSmWithCustomMessage answers 400 (SMS not sent) with no default gateway', async () => {
    const response = await ctx.admin.post(`${communication}/+31612345678/customizedSmsMessage`, {
      body: { smsMessage: 'hi' },
    });
    expectError(response, 400, 'invalid_request');
    expect((response.body as Json).message).toBe('the SMS was not sent: no SMS gateway is the default');
  });
});

describe('Communication_SendEmail', () => {
  const template = unique('notice');
  beforeAll(async () => {
    await created(ctx.admin, 'emailconfiguration/emailservers', smtpServer(unique('smtp')));
    await created(ctx.admin, 'emailconfiguration/emailtemplates', {
      name: template,
      subject: 'Notice for <%=USERNAME%>',
      body: 'Dear <%=FIRSTNAME%> (<%=DISPLAYNAME%>) of <%=ORGANIZATION%>, id <%=USERID%>, mail <%=EMAIL%>.',
    });
  });

  it('mails the user through the default server with the merge fields filled', async () => {
    const user = await newUser();
    const response = await ctx.admin.post(`${communication}/${user.id}/${template}`);
    expect(response.status).toBe(200);
    const mail = await mailbox.messageTo(user.email);
    expect(mail).toMatchObject({ from: 'idsvc@example.org', to: [user.email], subject: `Notice for ${user.userName}` });
    expect(mail.auth).toEqual({ username: 'mailer', password: 'Smtp-pa55' });
    expect(mail.body.trim()).toBe(`Dear Jane (Jane <Doe>) of Root, id ${user.id}, mail ${user.email}.`);
  });

  it('HTML-escapes the values in an HTML template', async () => {
    const html = unique('html');
    await created(ctx.admin, 'emailconfiguration/emailtemplates', {
      name: html,
      subject: 'Hi',
      body: '<p>Hello <%=DISPLAYNAME%></p>',
      isHtml: true,
    });
    const user = await newUser();
    expect((await ctx.admin.post(`${communication}/${user.id}/${html}`)).status).toBe(200);
    const mail = await mailbox.messageTo(user.email);
    expect(mail.headers['content-type']).toContain('text/html');
    expect(mail.body.trim()).toBe('<p>Hello Jane &lt;Doe&gt;</p>');
  });

  it('answers 404 for a user or a template that does not exist', async () => {
    expectError(await ctx.admin.post(`${communication}/${unknownGuid}/${template}`), 404, 'not_found');
    const user = await newUser();
    expectError(await ctx.admin.post(`${communication}/${user.id}/${unique('none')}`), 404, 'not_found');
  });

  it('answers 400 (mail not sent) for a user without an e-mail address', async () => {
    const user = await newUser({ email: null });
    const response = await ctx.admin.post(`${communication}/${user.id}/${template}`);
    expectError(response, 400, 'invalid_request');
    expect((response.body as Json).message).toContain('has no e-mail address');
  });
});

describe('Communication_SendEmailConfiguration', () => {
  const path_ = `customizedEmailTemplateAndEmailServer`;
  const emailTemplate = { name: 'adhoc', subject: 'Ad hoc <%=USERNAME%>', body: 'Body for <%=EMAIL%>' };

  it('writes the mail as an .eml file into a pickup directory, saving neither server nor template', async () => {
    const user = await newUser();
    const serverName = unique('pickup');
    const emailServer = {
      name: serverName,
      deliveryMethod: 'SpecifiedPickupDirectory',
      pickupDirectoryLocation: 'pickup',
    };
    const response = await ctx.admin.post(`${communication}/${user.id}/${path_}`, {
      body: { emailServer, emailTemplate },
    });
    expect(response.status).toBe(200);
    const files = fs.readdirSync(path.join(dataDir, 'pickup'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = fs.readFileSync(path.join(dataDir, 'pickup', files[0]), 'utf8');
    expect(eml).toContain(`Subject: Ad hoc ${user.userName}\r\n`);
    expect(eml).toContain(`To: ${user.email}\r\n`);
    expect(eml).toContain(`Body for ${user.email}`);
    const servers = (await ctx.admin.get<Json[]>(`${apiBase}/emailconfiguration/emailservers`)).body;
    expect(servers.map((s) => s.name)).not.toContain(serverName);
  });

  it('sends through the given SMTP server', async () => {
    const user = await newUser();
    const emailServer = smtpServer(unique('given'), { userName: 'other', password: 'Other-pa55' });
    const response = await ctx.admin.post(`${communication}/${user.id}/${path_}`, {
      body: { emailServer, emailTemplate },
    });
    expect(response.status).toBe(200);
    const mail = await mailbox.messageTo(user.email);
    expect(mail.auth).toEqual({ username: 'other', password: 'Other-pa55' });
    expect(mail.subject).toBe(`Ad hoc ${user.userName}`);
  });

  it('answers 400 with the reason when the SMTP server cannot be reached', async () => {
    const user = await newUser();
    const emailServer = smtpServer(unique('down'), { port: 1 });
    const response = await ctx.admin.post(`${communication}/${user.id}/${path_}`, {
      body: { emailServer, emailTemplate },
    });
    expectError(response, 400, 'invalid_request');
    expect((response.body as Json).message).toMatch(/^the mail was not sent: .*ECONNREFUSED/);
  });

  it('answers 404 for a user that does not exist and 400 for a body without server', async () => {
    const body = { emailServer: smtpServer(unique('s')), emailTemplate };
    expectError(await ctx.admin.post(`${communication}/${unknownGuid}/${path_}`, { body }), 404, 'not_found');
    const user = await newUser();
    expectError(
      await ctx.admin.post(`${communication}/${user.id}/${path_}`, { body: { emailTemplate } }),
      400,
      'invalid_request',
    );
  });
});

describe('Communication_SendSms', () => {
  const gateway = () => ({
    name: unique('adhocgw'),
    providerType: 'Http',
    url: `${sink.url}/sms`,
    userName: 'acct',
    password: 'Gw-pa55',
    bodyTemplate: '{"number":"<%=SMSNUMBER%>","message":"<%=SMSTEXT%>"}',
  });

  it('posts the message to the given Http gateway with its body template, saving nothing', async () => {
    const body = { ...gateway(), smsMessage: 'Hello "you"' };
    const response = await ctx.admin.post(`${communication}/+31 6 12345678/customizedSmsGateway`, { body });
    expect(response.status).toBe(200);
    const request = sink.requests.at(-1);
    expect(request?.path).toBe('/sms');
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('acct:Gw-pa55').toString('base64')}`);
    expect(JSON.parse(request?.body ?? '')).toEqual({ number: '+31612345678', message: 'Hello "you"' });
    const saved = (await ctx.admin.get<Json[]>(`${apiBase}/smsconfiguration/smsgateway`)).body;
    expect(saved.map((g) => g.name)).not.toContain(body.name);
  });

  it('sends the OTP template with a code when no message is given', async () => {
    expect(
      (await ctx.admin.post(`${communication}/+4915112345678/customizedSmsGateway`, { body: gateway() })).status,
    ).toBe(200);
    expect(JSON.parse(sink.requests.at(-1)?.body ?? '').message).toMatch(/^Your code is \d{6}$/);
  });

  it('appends the message to the file of a File gateway under the data dir', async () => {
    const body = { name: unique('filegw'), providerType: 'File', fileName: 'sms/outbox.log', smsMessage: 'to a file' };
    expect((await ctx.admin.post(`${communication}/+31612345678/customizedSmsGateway`, { body })).status).toBe(200);
    const lines = fs.readFileSync(path.join(dataDir, 'sms/outbox.log'), 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l)).map(({ to, text }) => ({ to, text }))).toEqual([
      { to: '+31612345678', text: 'to a file' },
    ]);
  });

  it('answers 400 for a number that is not international, and when the gateway fails', async () => {
    expectError(
      await ctx.admin.post(`${communication}/0612345678/customizedSmsGateway`, { body: gateway() }),
      400,
      'invalid_request',
    );
    sink.status = 500;
    try {
      const response = await ctx.admin.post(`${communication}/+31612345678/customizedSmsGateway`, { body: gateway() });
      expectError(response, 400, 'invalid_request');
      expect((response.body as Json).message).toBe('the SMS was not sent: the gateway answered HTTP 500');
    } finally {
      sink.status = 200;
    }
  });
});

describe('Communication_SendSmWithCustomMessage', () => {
  beforeAll(async () => {
    await created(ctx.admin, 'smsconfiguration/smsgateway', {
      name: unique('defaultgw'),
      providerType: 'Http',
      url: `${sink.url}/default`,
      bodyTemplate: 'to=<%=SMSNUMBER%>&text=<%=SMSTEXT%>',
    });
  });

  it('sends the custom message through the default gateway', async () => {
    const response = await ctx.admin.post(`${communication}/+31612345678/customizedSmsMessage`, {
      body: { smsMessage: 'Hi & bye' },
    });
    expect(response.status).toBe(200);
    const request = sink.requests.at(-1);
    expect(request?.path).toBe('/default');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({ to: '+31612345678', text: 'Hi & bye' });
  });

  it('sends DefaultSMSOTPCodeTemplate for an empty message', async () => {
    expect((await ctx.admin.post(`${communication}/+31612345678/customizedSmsMessage`, { body: {} })).status).toBe(200);
    expect(new URLSearchParams(sink.requests.at(-1)?.body).get('text')).toMatch(/^Your code is \d{6}$/);
  });

  it('answers 400 for a number that is not international', async () => {
    expectError(
      await ctx.admin.post(`${communication}/12345/customizedSmsMessage`, { body: { smsMessage: 'x' } }),
      400,
      'invalid_request',
    );
  });
});
