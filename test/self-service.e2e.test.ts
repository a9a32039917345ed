import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiBase, type Json, passwordGrant, testPassword, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, serverPerFile, unknownGuid } from './helpers/fixtures.js';
import { type Mailbox, startMailbox } from './helpers/mailbox.js';

const selfService = `${apiBase}/userselfservice`;
const newPassword = 'N3w-Passw0rd-for-me!';
const ctx = serverPerFile();

let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
  await created(ctx.admin, 'emailconfiguration/emailservers', {
    name: 'local',
    host: '127.0.0.1',
    port: mailbox.port,
    fromAddress: 'idsvc@example.org',
  });
});
afterAll(() => mailbox?.close());

type User = Json & { id: string; userName: string; email: string };

async function newUser(extra: Json = {}): Promise<User> {
  const userName = unique('self');
  return (await created(ctx.admin, 'users', {
    userName,
    email: `${userName}@example.org`,
    password: testPassword,
    ...extra,
  })) as User;
}

/** The one link of a mail. */
function linkIn(body: string): string {
  const match = /https?:\/\/\S+/.exec(body);
  if (!match) throw new Error(`no link in ${body}`);
  return match[0];
}

interface Page {
  status: number;
  headers: Headers;
  html: string;
  /** The CSRF cookie the page set, as a Cookie header. */
  cookie: string;
}

async function open(link: string, cookie = ''): Promise<Page> {
  const response = await fetch(link, { headers: cookie ? { cookie } : {} });
  const setCookie = response.headers.get('set-cookie') ?? '';
  return {
    status: response.status,
    headers: response.headers,
    html: await response.text(),
    cookie: setCookie.split(';')[0],
  };
}

/** The hidden fields and the target of the page's form. */
function formOf(page: Page, link: string): { action: string; hidden: Record<string, string> } {
  const action = /<form method="post" action="([^"]+)"/.exec(page.html)?.[1];
  if (!action) throw new Error(`no form in ${page.html}`);
  const hidden = Object.fromEntries(
    [...page.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  );
  return { action: new URL(action, link).toString(), hidden };
}

async function submit(page: Page, link: string, fields: Record<string, string>, cookie = page.cookie): Promise<Page> {
  const { action, hidden } = formOf(page, link);
  const response = await fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ ...hidden, ...fields }),
  });
  return { status: response.status, headers: response.headers, html: await response.text(), cookie };
}

async function resetLinkFor(user: User): Promise<string> {
  expect((await ctx.admin.post(`${selfService}/${user.id}/resetpassword`)).status).toBe(200);
  return linkIn((await mailbox.messageTo(user.email)).body);
}

describe('UserSelfService_ResetPassword', () => {
  it('mails a link whose page sets a new password: the new one works, the old one not, the link only once', async () => {
    const user = await newUser({ displayName: 'Jane' });
    const link = await resetLinkFor(user);
    expect(link).toMatch(new RegExp(`^${ctx.server.url}/runtime/ResetPassword/SetPassword\\?token=[\\w-]{43}$`));
    const mail = await mailbox.messageTo(user.email);
    expect(mail.subject).toBe('Set your password');
    expect(mail.body).toContain(`Hello Jane,`);
    expect(mail.body).toContain(`your account ${user.userName}:`);

    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'nonce-/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.html).toContain('name="password"');
    expect(page.html).toContain('name="confirmPassword"');
    expect(page.html).not.toContain('<script');

    const mismatch = await submit(page, link, { password: newPassword, confirmPassword: `${newPassword}x` });
    expect(mismatch.status).toBe(400);
    expect(mismatch.html).toContain('The two passwords differ.');

    const done = await submit(page, link, { password: newPassword, confirmPassword: newPassword });
    expect(done.status).toBe(200);
    expect(done.html).toContain('Your password is set');

    expect((await passwordGrant(ctx.server.url, user.userName, newPassword)).status).toBe(200);
    const old = await passwordGrant(ctx.server.url, user.userName, testPassword);
    expect(old.status).toBe(400);
    expect(old.body.error).toBe('invalid_grant');

    const again = await submit(page, link, { password: 'An0ther-passw0rd!', confirmPassword: 'An0ther-passw0rd!' });
    expect(again.status).toBe(400);
    expect(again.html).toContain('This link does not work');
    expect((await open(link)).status).toBe(400);
  });

  it('refuses a form posted without the CSRF cookie, and changes nothing', async () => {
    const user = await newUser();
    const link = await resetLinkFor(user);
    const page = await open(link);
    const forged = await submit(page, link, { password: newPassword, confirmPassword: newPassword }, '');
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('The form has expired');
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(200);
  });

  it('applies the password policy', async () => {
    const user = await newUser();
    const link = await resetLinkFor(user);
    const page = await open(link);
    const short = await submit(page, link, { password: 'short', confirmPassword: 'short' });
    expect(short.status).toBe(400);
    expect(short.html).toContain('password must be at least 8 characters long');
    expect((await passwordGrant(ctx.server.url, user.userName, 'short')).status).toBe(400);
  });

  it('clears a forced password reset', async () => {
    const user = await newUser({ forceResetPasswordAfterFirstTimeLogin: true });
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).body.error).toBe('invalid_client');
    const link = await resetLinkFor(user);
    const page = await open(link);
    expect((await submit(page, link, { password: newPassword, confirmPassword: newPassword })).status).toBe(200);
    expect((await passwordGrant(ctx.server.url, user.userName, newPassword)).status).toBe(200);
  });

  it('shows the error page for an unknown token', async () => {
    const page = await open(`${ctx.server.url}/runtime/ResetPassword/SetPassword?token=${'a'.repeat(43)}`);
    expect(page.status).toBe(400);
    expect(page.html).toContain('This link does not work');
  });

  it('answers 404 for a user that does not exist and 400 (mail not sent) for a user without e-mail', async () => {
    expectError(await ctx.admin.post(`${selfService}/${unknownGuid}/resetpassword`), 404, 'not_found');
    const user = await newUser({ email: null });
    const response = await ctx.admin.post(`${selfService}/${user.id}/resetpassword`);
    expectError(response, 400, 'invalid_request');
    expect((response.body as Json).message).toContain('has no e-mail address');
  });
});

describe('Users_Post and Users_PostMassUser with sendPasswordEmailToUser=true', () => {
  it('mails a new user a link that sets the first password', async () => {
    const userName = unique('fresh');
    const response = await ctx.admin.post(`${apiBase}/users`, {
      query: { sendPasswordEmailToUser: 'true' },
      body: { userName, email: `${userName}@example.org` },
    });
    expect(response.status).toBe(200);
    const link = linkIn((await mailbox.messageTo(`${userName}@example.org`)).body);
    const page = await open(link);
    expect((await submit(page, link, { password: newPassword, confirmPassword: newPassword })).status).toBe(200);
    expect((await passwordGrant(ctx.server.url, userName, newPassword)).status).toBe(200);
  });

  it('mails each created user that has an e-mail address', async () => {
    const [a, b] = [unique('batcha'), unique('batchb')];
    const before = mailbox.messages.length;
    const response = await ctx.admin.post(`${apiBase}/users/.batch`, {
      query: { sendPasswordEmailToUser: 'true' },
      body: [{ userName: a, email: `${a}@example.org` }, { userName: b }],
    });
    expect(response.status).toBe(200);
    await mailbox.messageTo(`${a}@example.org`);
    expect(mailbox.messages.length - before).toBe(1);
  });

  it('mails nobody without the parameter', async () => {
    const userName = unique('quiet');
    const before = mailbox.messages.length;
    expect(
      (await ctx.admin.post(`${apiBase}/users`, { body: { userName, email: `${userName}@example.org` } })).status,
    ).toBe(200);
    expect(mailbox.messages.length).toBe(before);
  });
});

describe('UserSelfService_UserOffboard', () => {
  it('answers a one-time link that deactivates the user and revokes its refresh tokens', async () => {
    const user = await newUser();
    const grant = await passwordGrant(ctx.server.url, user.userName, testPassword);
    const refreshToken = String(grant.body.refresh_token);

    const response = await ctx.admin.post(`${selfService}/${user.id}/offboard`, { body: { reason: 'leaving' } });
    expect(response.status).toBe(200);
    const body = response.body as Json;
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'offboardLink', 'userId']);
    expect(body.userId).toBe(user.id);
    const link = String(body.offboardLink);
    expect(link).toMatch(new RegExp(`^${ctx.server.url}/runtime/UserSelfService/Offboard\\?token=[\\w-]{43}$`));
    expect(new Date(String(body.expiresAt)).getTime()).toBeGreaterThan(Date.now());

    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain('name="confirm" value="yes"');
    expect((await ctx.admin.get(`${apiBase}/users/${user.id}`)).body).toMatchObject({ active: true });

    const done = await submit(page, link, { confirm: 'yes' });
    expect(done.status).toBe(200);
    expect(done.html).toContain('Your account is closed');
    expect((await ctx.admin.get(`${apiBase}/users/${user.id}`)).body).toMatchObject({ active: false });

    const refreshed = await fetch(`${ctx.server.url}/runtime/oauth2/token.idp`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'idsvc-cli', refresh_token: refreshToken }),
    });
    expect(refreshed.status).toBe(400);
    expect((await passwordGrant(ctx.server.url, user.userName, testPassword)).status).toBe(400);
    expect((await submit(page, link, { confirm: 'yes' })).status).toBe(400);
  });

  it('mails the link with sendEmail', async () => {
    const user = await newUser();
    const response = await ctx.admin.post(`${selfService}/${user.id}/offboard`, { body: { sendEmail: true } });
    expect(response.status).toBe(200);
    const mail = await mailbox.messageTo(user.email);
    expect(mail.subject).toBe('Confirm closing your account');
    expect(linkIn(mail.body)).toBe((response.body as Json).offboardLink);
  });

  it('answers 404 for a user or a mail template that does not exist', async () => {
    expectError(await ctx.admin.post(`${selfService}/${unknownGuid}/offboard`, { body: {} }), 404, 'not_found');
    const user = await newUser();
    const body = { sendEmail: true, emailTemplateName: unique('none') };
    expectError(await ctx.admin.post(`${selfService}/${user.id}/offboard`, { body }), 404, 'not_found');
  });

  it('answers 400 for an invalid body and for a user that is inactive already', async () => {
    const user = await newUser();
    expectError(
      await ctx.admin.post(`${selfService}/${user.id}/offboard`, { body: { sendEmail: 'yes' } }),
      400,
      'invalid_request',
    );
    const inactive = await newUser({ active: false });
    expectError(await ctx.admin.post(`${selfService}/${inactive.id}/offboard`), 400, 'invalid_request');
  });
});
