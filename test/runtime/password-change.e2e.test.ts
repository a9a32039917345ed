import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { alertOf, type Page } from './agent.js';
import { startPasswordSignIn } from './password-sign-in.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  execSql,
  runtimeServerPerFile,
  testPassword,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
const newPassword = 'N3w-Passw0rd!long';
let app: CreatedClient;

beforeAll(async () => {
  app = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri], allowedGrantTypes: ['authorization_code', 'password'] },
  });
});

/** Opens an authorization request and signs in with the user's (right) password; returns the page shown next. */
async function signInToChangePage(userName: string) {
  const { agent, next, config, verifier, state, nonce } = await startPasswordSignIn(
    rp.server,
    app,
    redirectUri,
    userName,
  );
  if (!next.page) throw new Error(`the sign-in left for ${next.left}`);
  return { agent, page: next.page, config, verifier, state, nonce };
}

function passwordGrant(userName: string, password: string) {
  return fetch(`${rp.server.url}/runtime/oauth2/token.idp`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: app.clientId,
      client_secret: app.clientSecret ?? '',
      username: userName,
      password,
      scope: 'openid',
    }),
  });
}

async function userRow(id: string) {
  const result = await execSql(rp.server)`
    select force_reset_password, password_expires_at, password_hash, active from users where id = ${id}`;
  return (
    (result as unknown as { rows: Record<string, unknown>[] }).rows?.[0] ??
    (result as unknown as Record<string, unknown>[])[0]
  );
}

describe('changing a password that must be reset, at sign-in', () => {
  it('asks for a new password, stores it and finishes the sign-in with a code and tokens', async () => {
    const user = await createUser(rp.server, { forceResetPasswordAfterFirstTimeLogin: true });
    const { agent, page, config, verifier, state, nonce } = await signInToChangePage(user.userName);
    expect(page.status).toBe(200);
    expect(page.html).toContain('name="password"');
    expect(page.html).toContain('name="confirmPassword"');
    expect(page.html).toContain('name="csrf_token"');
    expect(alertOf(page)).toBeUndefined();

    const done = await agent.submit(page, { password: newPassword, confirmPassword: newPassword });
    expect(done.left?.origin).toBe('http://127.0.0.1:9');
    const tokens = await oidc.authorizationCodeGrant(config, done.left as URL, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.claims()).toMatchObject({ sub: user.id, aud: app.clientId, amr: ['pwd'] });

    const row = await userRow(user.id);
    expect(row.force_reset_password).toBe(false);
    expect(row.password_expires_at).toBeNull();
    expect(String(row.password_hash).startsWith('$argon2id$')).toBe(true);

    const withNew = await passwordGrant(user.userName, newPassword);
    expect(withNew.status).toBe(200);
    expect(((await withNew.json()) as { token_type: string }).token_type).toBe('Bearer');
    const withOld = await passwordGrant(user.userName, testPassword);
    expect(withOld.status).toBe(400);
    expect(((await withOld.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('asks for a new password when the password has expired', async () => {
    const user = await createUser(rp.server);
    await execSql(rp.server)`update users set password_expires_at = now() - interval '1 day' where id = ${user.id}`;
    const expired = await passwordGrant(user.userName, testPassword);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error: string }).error).toBe('invalid_client');

    const { agent, page } = await signInToChangePage(user.userName);
    expect(page.html).toContain('name="confirmPassword"');
    const done = await agent.submit(page, { password: newPassword, confirmPassword: newPassword });
    expect(done.left?.searchParams.get('code')).toMatch(/.+/);
    expect((await passwordGrant(user.userName, newPassword)).status).toBe(200);
  });

  it('shows the page again with an error for a password that breaks the policy or is not confirmed', async () => {
    const user = await createUser(rp.server, { forceResetPasswordAfterFirstTimeLogin: true });
    const { agent, page } = await signInToChangePage(user.userName);

    const weak = await agent.submit(page, { password: 'short', confirmPassword: 'short' });
    expect(weak.page?.status).toBe(200);
    expect(weak.page?.html).toContain('name="confirmPassword"');
    expect(alertOf(weak.page as Page)).toMatch(/^The new password does not meet the requirements: .+/);

    const unconfirmed = await agent.submit(weak.page as Page, {
      password: newPassword,
      confirmPassword: `${newPassword}x`,
    });
    expect(alertOf(unconfirmed.page as Page)).toBe('The two passwords are not the same.');

    const row = await userRow(user.id);
    expect(row.force_reset_password).toBe(true);
    expect(row.active).toBe(true);

    const done = await agent.submit(unconfirmed.page as Page, { password: newPassword, confirmPassword: newPassword });
    expect(done.left?.searchParams.get('code')).toMatch(/.+/);
  });

  it('refuses the change form without its CSRF token', async () => {
    const user = await createUser(rp.server, { forceResetPasswordAfterFirstTimeLogin: true });
    const { agent, page } = await signInToChangePage(user.userName);
    const forged = await agent.submit(page, { password: newPassword, confirmPassword: newPassword, csrf_token: 'x' });
    expect(forged.page?.status).toBe(403);
    expect((await userRow(user.id)).force_reset_password).toBe(true);
  });
});
