import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created } from '../helpers/fixtures.js';
import { type Mailbox, type ReceivedMail, type SmsSink, startMailbox, startSmsSink } from '../helpers/mailbox.js';
import { Agent, alertOf, type Page, signIn } from './agent.js';
import { startPasswordSignIn } from './password-sign-in.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  execSql,
  rowsOf,
  rpConfig,
  runtimeServerPerFile,
  testPassword,
  unique,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
const smsTemplate = 'Your code is <%=SMSTEXT%> (sent to <%=SMSNUMBER%>)';
let mailbox: Mailbox;
let sink: SmsSink;
let emailApp: CreatedClient;
let smsApp: CreatedClient;
let shortLivedApp: CreatedClient;

const texts = {
  incorrect: 'The code is incorrect.',
  expired: 'The code has expired. Ask for a new code.',
  exhausted: 'The code was entered wrongly too often and no longer works. Ask for a new code.',
  noCode: 'There is no valid code to check. Ask for a new code.',
  resendWait: 'A new code can be sent 30 seconds after the previous one. Try again in a moment.',
  resent: 'A new code is on its way. The previous code no longer works.',
};

/** A SecondFactor connection of the plugin type; its name. */
async function secondFactorConnection(pluginType: 'SmsOtp' | 'EmailOtp', configuration: Record<string, unknown>) {
  const name = unique(pluginType.toLowerCase());
  await created(rp.server.admin, 'connections', { name, connectionType: 'SecondFactor', pluginType, configuration });
  return name;
}

beforeAll(async () => {
  mailbox = await startMailbox();
  sink = await startSmsSink();
  await created(rp.server.admin, 'emailconfiguration/emailservers', {
    name: unique('smtp'),
    host: '127.0.0.1',
    port: mailbox.port,
    fromAddress: 'idsvc@example.org',
    default: true,
  });
  await created(rp.server.admin, 'smsconfiguration/smsgateway', {
    name: unique('gateway'),
    providerType: 'Http',
    url: `${sink.url}/sms`,
    bodyTemplate: '{"number":"<%=SMSNUMBER%>","message":"<%=SMSTEXT%>"}',
    isDefault: true,
  });
  const template = unique('otptemplate');
  await created(rp.server.admin, 'smsconfiguration/smstemplate', { name: template, content: smsTemplate });
  const email = await secondFactorConnection('EmailOtp', {});
  const sms = await secondFactorConnection('SmsOtp', { smsTemplateName: template });
  const shortLived = await secondFactorConnection('EmailOtp', { codeLifetime: 60, codeLength: 8 });
  const client = (names: string[]) =>
    createClient(rp.server, {
      configuration: { redirectUris: [redirectUri] },
      dependencyConnectionNames: ['UsernamePassword', ...names],
    });
  emailApp = await client([email]);
  smsApp = await client([sms]);
  shortLivedApp = await client([shortLived]);
});

afterAll(async () => {
  await mailbox?.close();
  await sink?.close();
});

/** Opens an authorization request of the client and signs in with the password; returns the page shown next. */
function signInWithPassword(app: CreatedClient, userName: string) {
  return startPasswordSignIn(rp.server, app, redirectUri, userName);
}

/** The `count`-th mail to the address (1-based), waiting for it. */
async function mailTo(address: string, count = 1): Promise<ReceivedMail> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mails = mailbox.messages.filter((m) => m.to.includes(address));
    if (mails.length >= count) return mails[count - 1];
    if (Date.now() > deadline) throw new Error(`mail ${count} to ${address} did not arrive`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const codeOfMail = (mail: ReceivedMail) => /verification code is (\d+)\./.exec(mail.body)?.[1] ?? '';

/** The SMS requests the gateway received for the number. */
const smsTo = (number: string) =>
  sink.requests
    .map((r) => JSON.parse(r.body) as { number: string; message: string })
    .filter((m) => m.number === number);

const codeOfSms = (message: string) => /Your code is (\d+)/.exec(message)?.[1] ?? '';

async function codeRows(userId: string) {
  return rowsOf(
    await execSql(rp.server)`
      select code_hash, attempts, extract(epoch from expires_at - created_at)::int as lifetime
      from one_time_codes where user_id = ${userId}`,
  );
}

async function failedLoginCount(userId: string): Promise<number> {
  const [row] = rowsOf(await execSql(rp.server)`select failed_login_count from users where id = ${userId}`);
  return Number(row.failed_login_count);
}

/** A six-digit code other than `code`. */
const otherThan = (code: string) => (code === '000000' ? '000001' : '000000');

describe('the e-mail one-time code at sign-in', () => {
  it('mails a code after the password and signs in with it, amr pwd and otp', async () => {
    const user = await createUser(rp.server);
    const email = `${user.userName}@example.test`;
    const { agent, next, config, verifier, state, nonce } = await signInWithPassword(emailApp, user.userName);
    const page = next.page as Page;
    expect(page.status).toBe(200);
    expect(page.html).toContain('name="otp"');
    expect(page.html).toContain('We sent a code by e-mail to u•••@example.test. Enter it to continue.');
    expect(page.html).toContain('name="resend" value="code"');

    const mail = await mailTo(email);
    expect(mail.subject).toBe('Your verification code');
    const code = codeOfMail(mail);
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await codeRows(user.id);
    expect(row).toMatchObject({ attempts: 0, lifetime: 300 });
    expect(String(row.code_hash)).not.toContain(code);

    const done = await agent.submit(page, { otp: code });
    expect(done.left?.origin).toBe('http://127.0.0.1:9');
    const tokens = await oidc.authorizationCodeGrant(config, done.left as URL, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.claims()).toMatchObject({ sub: user.id, amr: ['pwd', 'otp'] });
    expect(await codeRows(user.id)).toEqual([]);
  });

  it('accepts a code once: the same form posted again, or the code on a later sign-in, is refused', async () => {
    const user = await createUser(rp.server);
    const first = await signInWithPassword(emailApp, user.userName);
    const code = codeOfMail(await mailTo(`${user.userName}@example.test`));
    const accepted = await first.agent.submit(first.next.page as Page, { otp: code });
    expect(accepted.left?.searchParams.get('code')).toMatch(/.+/);

    const replayed = await first.agent.submit(first.next.page as Page, { otp: code });
    expect(replayed.left).toBeUndefined();
    expect(alertOf(replayed.page as Page)).toBe(texts.noCode);

    const second = await signInWithPassword(emailApp, user.userName);
    await mailTo(`${user.userName}@example.test`, 2);
    const again = await second.agent.submit(second.next.page as Page, { otp: code });
    expect(again.left).toBeUndefined();
    expect(alertOf(again.page as Page)).toBe(texts.incorrect);
  });

  it('counts a wrong code as a failed sign-in and against the code, which dies after five', async () => {
    const user = await createUser(rp.server);
    const { agent, next } = await signInWithPassword(emailApp, user.userName);
    const code = codeOfMail(await mailTo(`${user.userName}@example.test`));
    let page = next.page as Page;
    for (let attempt = 1; attempt <= 4; attempt++) {
      page = (await agent.submit(page, { otp: otherThan(code) })).page as Page;
      expect(alertOf(page)).toBe(texts.incorrect);
      expect(await failedLoginCount(user.id)).toBe(attempt);
      expect((await codeRows(user.id))[0]).toMatchObject({ attempts: attempt });
    }
    page = (await agent.submit(page, { otp: otherThan(code) })).page as Page;
    expect(alertOf(page)).toBe(texts.exhausted);
    const right = await agent.submit(page, { otp: code });
    expect(right.left).toBeUndefined();
    expect(alertOf(right.page as Page)).toBe(texts.exhausted);
    expect(await failedLoginCount(user.id)).toBe(6);
  });

  it('locks the account at the lockout threshold', async () => {
    const user = await createUser(rp.server);
    const { agent, next } = await signInWithPassword(emailApp, user.userName);
    const code = codeOfMail(await mailTo(`${user.userName}@example.test`));
    await execSql(rp.server)`update users set failed_login_count = 9 where id = ${user.id}`;
    const refused = await agent.submit(next.page as Page, { otp: otherThan(code) });
    expect(alertOf(refused.page as Page)).toBe('This account is locked. Ask an administrator to unlock it.');
    const right = await agent.submit(refused.page as Page, { otp: code });
    expect(alertOf(right.page as Page)).toBe('This account is locked. Ask an administrator to unlock it.');
  });

  it('refuses an expired code without counting a failure', async () => {
    const user = await createUser(rp.server);
    const { agent, next } = await signInWithPassword(emailApp, user.userName);
    const code = codeOfMail(await mailTo(`${user.userName}@example.test`));
    await execSql(rp.server)`
      update one_time_codes set expires_at = now() - interval '1 second' where user_id = ${user.id}`;
    const refused = await agent.submit(next.page as Page, { otp: code });
    expect(refused.left).toBeUndefined();
    expect(alertOf(refused.page as Page)).toBe(texts.expired);
    expect(await failedLoginCount(user.id)).toBe(0);
  });

  it("takes the code's length and lifetime from the connection's configuration", async () => {
    const user = await createUser(rp.server);
    const { agent, next } = await signInWithPassword(shortLivedApp, user.userName);
    const mail = await mailTo(`${user.userName}@example.test`);
    expect(mail.body).toContain('It can be used once, within 1 min.');
    const code = codeOfMail(mail);
    expect(code).toMatch(/^\d{8}$/);
    expect((await codeRows(user.id))[0]).toMatchObject({ lifetime: 60 });
    const done = await agent.submit(next.page as Page, { otp: code });
    expect(done.left?.searchParams.get('code')).toMatch(/.+/);
  });

  it('sends a new code on request, at most once per 30 seconds; the new code replaces the old one', async () => {
    const user = await createUser(rp.server);
    const email = `${user.userName}@example.test`;
    const { agent, next } = await signInWithPassword(emailApp, user.userName);
    const first = codeOfMail(await mailTo(email));
    const resend = { name: 'resend', value: 'code' };

    const tooSoon = (await agent.submit(next.page as Page, {}, resend)).page as Page;
    expect(alertOf(tooSoon)).toBe(texts.resendWait);
    expect(mailbox.messages.filter((m) => m.to.includes(email))).toHaveLength(1);

    await execSql(rp.server)`
      update one_time_codes set created_at = now() - interval '31 seconds' where user_id = ${user.id}`;
    const resent = (await agent.submit(tooSoon, {}, resend)).page as Page;
    expect(alertOf(resent)).toBeUndefined();
    expect(resent.html).toContain(texts.resent);
    const second = codeOfMail(await mailTo(email, 2));

    const old = (await agent.submit(resent, { otp: first === second ? otherThan(second) : first })).page as Page;
    expect(alertOf(old)).toBe(texts.incorrect);
    const done = await agent.submit(old, { otp: second });
    expect(done.left?.searchParams.get('code')).toMatch(/.+/);
  });

  it('refuses the resend form without its CSRF token', async () => {
    const user = await createUser(rp.server);
    const { agent, next } = await signInWithPassword(emailApp, user.userName);
    await mailTo(`${user.userName}@example.test`);
    const forged = await agent.submit(next.page as Page, { csrf_token: 'x' }, { name: 'resend', value: 'code' });
    expect(forged.page?.status).toBe(403);
  });

  it('shows an error page to a user without an e-mail address, and does not sign in', async () => {
    const user = await createUser(rp.server, { email: undefined });
    await execSql(rp.server)`update users set email = null where id = ${user.id}`;
    const { next } = await signInWithPassword(emailApp, user.userName);
    expect(next.left).toBeUndefined();
    expect(next.page?.status).toBe(403);
    expect(next.page?.html).toContain(
      'Signing in needs a code by e-mail, but your account has no e-mail address. Ask an administrator to add one.',
    );
    expect(next.page?.html).not.toContain('name="otp"');
  });

  it('asks the code again when the SSO session was signed in with the password alone', async () => {
    const user = await createUser(rp.server);
    const plain = await createClient(rp.server, { configuration: { redirectUris: [redirectUri] } });
    const agent = new Agent(rp.server.url);
    const url = (config: oidc.Configuration) =>
      oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid' });
    await signIn(agent, url(await rpConfig(rp.server, plain)), user.userName, testPassword);
    const silent = await agent.navigate(`${url(await rpConfig(rp.server, emailApp))}&prompt=none`);
    expect(silent.left?.searchParams.get('error')).toBe('login_required');
  });
});

describe('the SMS one-time code at sign-in', () => {
  it('sends the code through the default gateway with the connection template and signs in with it', async () => {
    const phoneNumber = '+31612345678';
    const user = await createUser(rp.server, { phoneNumber });
    const before = smsTo(phoneNumber).length;
    const { agent, next, config, verifier, state, nonce } = await signInWithPassword(smsApp, user.userName);
    const page = next.page as Page;
    expect(page.html).toContain('We sent a code by text message to ••••5678. Enter it to continue.');
    const sent = smsTo(phoneNumber).slice(before);
    expect(sent).toHaveLength(1);
    const code = codeOfSms(sent[0].message);
    expect(code).toMatch(/^\d{6}$/);
    expect(sent[0].message).toBe(`Your code is ${code} (sent to +31612345678)`);

    const wrong = (await agent.submit(page, { otp: otherThan(code) })).page as Page;
    expect(alertOf(wrong)).toBe(texts.incorrect);
    expect(wrong.html).toContain('••••5678');
    const done = await agent.submit(wrong, { otp: code });
    const tokens = await oidc.authorizationCodeGrant(config, done.left as URL, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.claims()).toMatchObject({ sub: user.id, amr: ['pwd', 'otp'] });
  });

  it('shows an error page to a user without a phone number, and sends nothing', async () => {
    const user = await createUser(rp.server);
    const requests = sink.requests.length;
    const { next } = await signInWithPassword(smsApp, user.userName);
    expect(next.left).toBeUndefined();
    expect(next.page?.status).toBe(403);
    expect(next.page?.html).toContain('but your account has no mobile phone number for it');
    expect(sink.requests).toHaveLength(requests);
  });

  it('shows an error page when the gateway does not take the message, and keeps no code', async () => {
    const user = await createUser(rp.server, { phoneNumber: '+31687654321' });
    sink.status = 500;
    try {
      const { next } = await signInWithPassword(smsApp, user.userName);
      expect(next.page?.status).toBe(503);
      expect(next.page?.html).toContain(
        'The code could not be sent. Try again later, or ask an administrator for help.',
      );
    } finally {
      sink.status = 200;
    }
    expect(await codeRows(user.id)).toEqual([]);
  });
});
