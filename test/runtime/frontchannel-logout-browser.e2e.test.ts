import type { IncomingMessage, ServerResponse } from 'node:http';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpEndpoint, startHttpEndpoint } from '../../packages/server/src/test-support/http-endpoint.js';
import { hasChromium, launch, noteWhenChromiumAbsent, step } from './chromium.js';
import { createClient, createUser, rpConfig, runtimeServerPerFile, testPassword } from './support.js';
import { logoutUrl } from './upstream-logout-support.js';

noteWhenChromiumAbsent('front-channel logout browser test');

/** A request the relying party received: its path and query, and what the browser fetched it for. */
interface Visit {
  url: string;
  dest: string | undefined;
}

describe.skipIf(!hasChromium)('front-channel logout in headless Chromium', () => {
  const rp = runtimeServerPerFile();
  /** The relying party: its redirect URI, its front-channel logout address and its post-logout address. */
  let relyingParty: HttpEndpoint;
  const visits: Visit[] = [];

  function answer(req: IncomingMessage, res: ServerResponse) {
    visits.push({ url: req.url ?? '', dest: req.headers['sec-fetch-dest'] as string | undefined });
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end('<!doctype html><title>relying party</title><p>relying party</p>');
  }

  beforeAll(async () => {
    relyingParty = await startHttpEndpoint(answer);
  });
  afterAll(async () => {
    await relyingParty?.close();
  });

  it('loads the front-channel address with iss and sid, then ends at the post-logout address (no script)', async () => {
    const base = relyingParty.url;
    const client = await createClient(rp.server, {
      configuration: {
        redirectUris: [`${base}/cb`],
        postLogoutRedirectUris: [`${base}/bye`],
        frontchannelLogoutUri: `${base}/fc?tenant=t`,
      },
    });
    const user = await createUser(rp.server);
    const config = await rpConfig(rp.server, client);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: `${base}/cb`, scope: 'openid', state, nonce });
    const browser = await launch({ javaScriptEnabled: false });
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    try {
      await step(page, 'front-channel sign-in', async () => {
        await page.goto(url.toString());
        await page.fill('input[name="username"]', user.userName);
        await page.fill('input[name="password"]', testPassword);
        await page.click('button[type="submit"]');
        await page.waitForURL(`${base}/cb?**`);
      });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
        expectedState: state,
        expectedNonce: nonce,
      });
      const sid = tokens.claims()?.sid;
      expect(sid).toEqual(expect.any(String));
      visits.length = 0;
      const params = { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${base}/bye`, state: 'st' };
      await step(page, 'front-channel logout', async () => {
        await page.goto(logoutUrl(rp.server, params));
        await page.waitForURL(`${base}/bye?state=st`, { timeout: 15_000 });
      });
      const frame = visits.find((visit) => visit.url.startsWith('/fc?'));
      expect(frame?.dest).toBe('iframe');
      const query = new URLSearchParams(frame!.url.slice('/fc?'.length));
      expect([...query]).toEqual([
        ['tenant', 't'],
        ['iss', rp.server.issuer],
        ['sid', sid],
      ]);
      // The frame loaded before the browser went on; the browser's own favicon requests aside.
      const pages = visits.map((visit) => visit.url).filter((url) => url !== '/favicon.ico');
      expect(pages, JSON.stringify(visits)).toEqual([frame!.url, '/bye?state=st']);
    } finally {
      await browser.close();
    }
  });
});
