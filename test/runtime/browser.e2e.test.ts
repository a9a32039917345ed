import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiBase } from '../helpers/api.js';
import { type Mailbox, startMailbox } from '../helpers/mailbox.js';
import { hasChromium, launch, noteWhenChromiumAbsent, step } from './chromium.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  rpConfig,
  runtimeServerPerFile,
  testPassword,
} from './support.js';

noteWhenChromiumAbsent('browser tests');
const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
const newPassword = 'Br0wser-Chosen-Passw0rd!';

/** A relying party's redirect endpoint: answers a plain page so that the browser stops there. */
async function startRelyingParty(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>relying party</title><p>back at the relying party</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(!hasChromium)('hosted pages in headless Chromium', () => {
  const rp = runtimeServerPerFile();
  let relyingParty: { url: string; server: Server };
  let mailbox: Mailbox;
  let client: CreatedClient;
  let redirectUri: string;

  beforeAll(async () => {
    relyingParty = await startRelyingParty();
    redirectUri = `${relyingParty.url}/cb`;
    client = await createClient(rp.server, {
      configuration: { redirectUris: [redirectUri], consentRequired: true },
    });
    mailbox = await startMailbox();
    const server = await rp.server.admin.post(`${apiBase}/emailconfiguration/emailservers`, {
      body: { name: 'local', host: '127.0.0.1', port: mailbox.port, fromAddress: 'idsvc@example.org' },
    });
    expect(server.status).toBe(200);
  });
  afterAll(async () => {
    relyingParty?.server.close();
    await mailbox?.close();
  });

  it('signs in and consents with JavaScript off, and the relying party gets its tokens', async () => {
    const user = await createUser(rp.server);
    const config = await rpConfig(rp.server, client);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile',
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const browser = await launch({ javaScriptEnabled: false });
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    try {
      await step(page, 'login page', async () => {
        await page.goto(url.toString());
        await expect(page.title()).resolves.toBe('Sign in');
        await page.fill('input[name="username"]', user.userName);
        await page.fill('input[name="password"]', testPassword);
        await page.click('button[type="submit"]');
      });
      await step(page, 'consent page', async () => {
        await page.waitForSelector('button[name="consent"][value="allow"]');
        expect(await page.textContent('h1')).toBe('Allow access');
        await page.click('button[name="consent"][value="allow"]');
        await page.waitForURL(`${redirectUri}?**`);
      });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      expect(tokens.claims()?.sub).toBe(user.id);
    } finally {
      await browser.close();
    }
  });

  it('shows the login error in Dutch for ui_locales=nl', async () => {
    const config = await rpConfig(rp.server, client);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', ui_locales: 'nl' });
    const browser = await launch();
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    try {
      await step(page, 'dutch login', async () => {
        await page.goto(url.toString());
        await page.fill('input[name="username"]', 'nobody');
        await page.fill('input[name="password"]', 'wrong');
        await page.click('button[type="submit"]');
        await expect(page.textContent('[role="alert"]')).resolves.toBe(
          'De gebruikersnaam of het wachtwoord is onjuist.',
        );
      });
    } finally {
      await browser.close();
    }
  });

  it('verifies a device: the code is prefilled, the person signs in and allows, the device gets tokens', async () => {
    const user = await createUser(rp.server);
    const device = await createClient(rp.server, {
      configuration: { publicClient: true, allowedGrantTypes: [DEVICE_CODE], redirectUris: [] },
    });
    const config = await rpConfig(rp.server, device, 'none');
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const polling = oidc.pollDeviceAuthorizationGrant(config, started);
    const browser = await launch();
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    try {
      await step(page, 'device page', async () => {
        await page.goto(started.verification_uri_complete!);
        expect(await page.inputValue('input[name="user_code"]')).toBe(started.user_code);
        await page.click('button[type="submit"]');
        await page.fill('input[name="username"]', user.userName);
        await page.fill('input[name="password"]', testPassword);
        await page.click('button[type="submit"]');
        await expect(page.textContent('body')).resolves.toContain(started.user_code);
        await page.click('button[name="consent"][value="allow"]');
        await expect(page.textContent('[role="status"]')).resolves.toBe(
          'The device is connected. You can close this page.',
        );
      });
      const tokens = await polling;
      expect(tokens.claims()?.sub).toBe(user.id);
    } finally {
      await browser.close();
    }
  });

  it('resets a forgotten password from the login page through the mailed link', async () => {
    const user = await createUser(rp.server);
    const config = await rpConfig(rp.server, client);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid' });
    const browser = await launch();
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    try {
      await step(page, 'forgot password', async () => {
        await page.goto(url.toString());
        await page.click('a[href*="ForgotPassword2"]');
        expect(new URL(page.url()).pathname).toBe('/runtime/ResetPassword/ForgotPassword2');
        await page.fill('input[name="username"]', String(user.email));
        await page.click('button[type="submit"]');
        await expect(page.textContent('[role="status"]')).resolves.toContain('an e-mail with a link');
      });
      const mail = await mailbox.messageTo(String(user.email));
      const link = /https?:\/\/\S+SetPassword\?token=[\w-]+/.exec(mail.body)?.[0];
      expect(link).toBeDefined();
      await step(page, 'set password', async () => {
        await page.goto(link!);
        await page.fill('input[name="password"]', newPassword);
        await page.fill('input[name="confirmPassword"]', newPassword);
        await page.click('button[type="submit"]');
        await expect(page.textContent('h1')).resolves.toBe('Your password is set');
      });
      await step(page, 'sign in with the new password', async () => {
        await page.goto(url.toString());
        await page.fill('input[name="username"]', user.userName);
        await page.fill('input[name="password"]', newPassword);
        await page.click('button[type="submit"]');
        await page.waitForSelector('button[name="consent"][value="allow"]');
      });
    } finally {
      await browser.close();
    }
  });
});
