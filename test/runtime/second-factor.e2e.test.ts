import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../packages/server/node_modules/otplib/dist/index.js';
import { apiBase } from '../helpers/api.js';
import { Agent, alertOf, type Page, signIn } from './agent.js';
import { startPasswordSignIn } from './password-sign-in.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  execSql,
  rpConfig,
  runtimeServerPerFile,
  testPassword,
  unique,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
/** A base32 TOTP secret of 32 characters. */
const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
let totpName: string;
let app: CreatedClient;

beforeAll(async () => {
  totpName = unique('totp');
  const created = await rp.server.admin.post(`${apiBase}/connections`, {
    body: { name: totpName, connectionType: 'SecondFactor', pluginType: 'Totp', configuration: {} },
  });
  if (created.status !== 200) throw new Error(`create Totp: ${created.status} ${JSON.stringify(created.body)}`);
  app = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri] },
    dependencyConnectionNames: ['UsernamePassword', totpName],
  });
});

/** A user with an authenticator enrolled for the Totp connection. */
async function enrolledUser() {
  const user = await createUser(rp.server);
  const response = await rp.server.admin.post(`${apiBase}/users/onboardauthenticator`, {
    query: { userId: user.id, connectionName: totpName, secretCode: secret },
  });
  if (response.status !== 200) throw new Error(`onboard: ${response.status} ${JSON.stringify(response.body)}`);
  return user;
}

/** Opens an authorization request and signs in with the password; returns the page shown next. */
function signInWithPassword(userName: string, password = testPassword) {
  return startPasswordSignIn(rp.server, app, redirectUri, userName, password);
}

/** A six-digit code that is not the current one (nor of the steps either side). */
async function wrongCode(): Promise<string> {
  const now = Date.now();
  const near = await Promise.all(
    [-30_000, 0, 30_000].map((d) => generate({ secret, epoch: Math.floor((now + d) / 1000) })),
  );
  let code = '000000';
  while (near.includes(code)) code = String(Number(code) + 1).padStart(6, '0');
  return code;
}

describe('the TOTP second factor at sign-in', () => {
  it('asks for the code after the password, refuses a wrong one and signs in with amr pwd and otp', async () => {
    const user = await enrolledUser();
    const { agent, next, config, verifier, state, nonce } = await signInWithPassword(user.userName);
    const otpPage = next.page as Page;
    expect(otpPage.status).toBe(200);
    expect(otpPage.html).toContain('name="otp"');
    expect(otpPage.html).toContain('name="csrf_token"');
    expect(otpPage.html).not.toContain('name="password"');

    const refused = await agent.submit(otpPage, { otp: await wrongCode() });
    expect(refused.page?.status).toBe(200);
    expect(alertOf(refused.page as Page)).toBe('The code is incorrect.');

    const done = await agent.submit(refused.page as Page, { otp: await generate({ secret }) });
    expect(done.left?.origin).toBe('http://127.0.0.1:9');
    const tokens = await oidc.authorizationCodeGrant(config, done.left as URL, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.claims()).toMatchObject({ sub: user.id, amr: ['pwd', 'otp'] });
  });

  it('asks the code again when the SSO session was signed in with the password alone', async () => {
    const user = await enrolledUser();
    const plain = await createClient(rp.server, { configuration: { redirectUris: [redirectUri] } });
    const plainConfig = await rpConfig(rp.server, plain);
    const agent = new Agent(rp.server.url);
    const first = await signIn(
      agent,
      oidc.buildAuthorizationUrl(plainConfig, { redirect_uri: redirectUri, scope: 'openid' }),
      user.userName,
      testPassword,
    );
    expect(first.searchParams.get('code')).toMatch(/.+/);
    const config = await rpConfig(rp.server, app);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid' });
    const silent = await agent.navigate(`${url}&prompt=none`);
    expect(silent.left?.searchParams.get('error')).toBe('login_required');
    const again = await agent.navigate(url.toString());
    expect(again.page?.html).toContain('name="password"');
  });

  it('accepts a code once: the same code on a second sign-in is refused', async () => {
    const user = await enrolledUser();
    const code = await generate({ secret });
    const first = await signInWithPassword(user.userName);
    const accepted = await first.agent.submit(first.next.page as Page, { otp: code });
    expect(accepted.left?.searchParams.get('code')).toMatch(/.+/);

    const second = await signInWithPassword(user.userName);
    const replayed = await second.agent.submit(second.next.page as Page, { otp: code });
    expect(replayed.left).toBeUndefined();
    expect(alertOf(replayed.page as Page)).toBe('The code is incorrect.');
  });

  it('signs a user without an authenticator in with the password alone', async () => {
    const user = await createUser(rp.server);
    const { next } = await signInWithPassword(user.userName);
    expect(next.left?.searchParams.get('code')).toMatch(/.+/);
  });

  it('counts wrong codes toward the lockout and refuses the form without its CSRF token', async () => {
    const user = await enrolledUser();
    await execSql(rp.server)`update users set failed_login_count = 8 where id = ${user.id}`;
    const { agent, next } = await signInWithPassword(user.userName);
    // The right password reset the count.
    const forged = await agent.submit(next.page as Page, { otp: await generate({ secret }), csrf_token: 'x' });
    expect(forged.page?.status).toBe(403);
    let page = next.page as Page;
    for (let i = 0; i < 9; i++) {
      page = (await agent.submit(page, { otp: await wrongCode() })).page as Page;
      expect(alertOf(page)).toBe('The code is incorrect.');
    }
    const last = (await agent.submit(page, { otp: await wrongCode() })).page as Page;
    expect(alertOf(last)).toBe('This account is locked. Ask an administrator to unlock it.');
    const right = (await agent.submit(last, { otp: await generate({ secret }) })).page as Page;
    expect(alertOf(right)).toBe('This account is locked. Ask an administrator to unlock it.');
  });
});
