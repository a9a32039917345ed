import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_BASE_URL, type TestContext } from '../test-support/context.js';
import { createTestClient } from '../test-support/fixtures.js';
import {
  type FrontchannelLogout,
  frontchannelFrames,
  frontchannelLogoutAddress,
  frontchannelLogoutOf,
  sendSigningOutPage,
} from './frontchannel-logout.js';
import { newContinuation, openContinuation, sealContinuation } from './upstream/logout-continuation.js';
import { finishLogout } from './upstream/logout-finish.js';

const issuer = `${TEST_BASE_URL}/runtime/oauth2`;

describe('frontchannelLogoutAddress', () => {
  const session = { issuer: 'https://id.example/runtime/oauth2', sessionId: 'a1b2' };
  const encodedIssuer = 'https%3A%2F%2Fid.example%2Fruntime%2Foauth2';

  it('adds iss and sid as query parameters', () => {
    expect(frontchannelLogoutAddress('https://app.example/fc', session)).toBe(
      `https://app.example/fc?iss=${encodedIssuer}&sid=a1b2`,
    );
  });

  it('keeps the query the address has, as it is', () => {
    expect(frontchannelLogoutAddress('https://app.example:8443/fc?tenant=a%20b&x', session)).toBe(
      `https://app.example:8443/fc?tenant=a%20b&x&iss=${encodedIssuer}&sid=a1b2`,
    );
  });

  it('adds nothing without the session (frontchannelLogoutSessionRequired false), and drops a fragment', () => {
    expect(frontchannelLogoutAddress('https://app.example/fc?x=1')).toBe('https://app.example/fc?x=1');
    expect(frontchannelLogoutAddress('https://app.example/fc#top', session)).toBe(
      `https://app.example/fc?iss=${encodedIssuer}&sid=a1b2`,
    );
  });
});

describe('front-channel logout of an ended session', () => {
  let ctx: TestContext;
  let withSid: string;
  let withoutSid: string;
  let none: string;
  let disabled: string;

  const client = async (configuration: Record<string, unknown>, enabled = true) =>
    (await createTestClient(ctx.db, ctx.box, { configuration, enabled })).clientId;

  beforeAll(async () => {
    ctx = await createTestContext();
    withSid = await client({ frontchannelLogoutUri: 'https://a.example/fc?tenant=1' });
    withoutSid = await client({
      frontchannelLogoutUri: 'https://b.example:8443/logout',
      frontchannelLogoutSessionRequired: false,
    });
    none = await client({ backchannelLogoutUri: 'https://c.example/bc' });
    disabled = await client({ frontchannelLogoutUri: 'https://d.example/fc' }, false);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('names the session and those of its clients that have a front-channel logout address', async () => {
    const id = randomUUID();
    const clients = [none, withSid, 'unknown-client', disabled, withoutSid, withSid];
    expect(await frontchannelLogoutOf(ctx, { id, userId: 'u', clients })).toEqual({
      sessionId: id,
      clientIds: [withSid, withoutSid],
    });
    expect(await frontchannelLogoutOf(ctx, { id, userId: 'u', clients: [none, disabled] })).toBeUndefined();
    expect(await frontchannelLogoutOf(ctx, undefined)).toBeUndefined();
  });

  it('gives each client its address, with iss and sid unless the client says otherwise', async () => {
    const frames = await frontchannelFrames(ctx, { sessionId: 'sess-1', clientIds: [withSid, withoutSid, none] });
    expect(frames).toEqual([
      `https://a.example/fc?tenant=1&iss=${encodeURIComponent(issuer)}&sid=sess-1`,
      'https://b.example:8443/logout',
    ]);
    expect(await frontchannelFrames(ctx, undefined)).toEqual([]);
    const malformed = { sessionId: 'sess-1', clientIds: 'nope' } as unknown as FrontchannelLogout;
    expect(await frontchannelFrames(ctx, malformed)).toEqual([]);
  });

  it('sends the signing-out page: frame-src the frames origins only, never cached', async () => {
    const app = new Hono().get('/', (c) =>
      sendSigningOutPage(ctx, c, {
        frames: ['https://a.example/fc?x=1', 'https://b.example:8443/logout', 'https://a.example/other'],
        next: 'https://a.example/bye?state=s',
        uiLocales: 'nl',
      }),
    );
    const response = await app.request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toBe(
      [
        "default-src 'none'",
        "style-src 'self'",
        "img-src 'self' data:",
        "script-src 'none'",
        "form-action 'self'",
        'frame-src https://a.example https://b.example:8443',
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ].join('; '),
    );
    const html = await response.text();
    expect(html).toContain('<html lang="nl">');
    expect(html).toContain('<meta http-equiv="refresh" content="2;url=https://a.example/bye?state=s"/>');
    expect(html.match(/<iframe /g)).toHaveLength(3);
  });

  it('finishes a logout with front-channel clients on the signing-out page, and one without as before', async () => {
    const finish = { returnTo: 'https://a.example/bye', state: 'st' };
    const app = new Hono()
      .get('/plain', (c) => finishLogout(ctx, c, finish))
      .get('/frames', (c) =>
        finishLogout(ctx, c, { ...finish, frontchannel: { sessionId: 's', clientIds: [withSid] } }),
      )
      .get('/gone', (c) => finishLogout(ctx, c, { ...finish, frontchannel: { sessionId: 's', clientIds: [disabled] } }))
      .get('/signed-out', (c) => finishLogout(ctx, c, { frontchannel: { sessionId: 's', clientIds: [withoutSid] } }));
    const plain = await app.request('/plain');
    expect([plain.status, plain.headers.get('location')]).toEqual([302, 'https://a.example/bye?state=st']);
    const gone = await app.request('/gone');
    expect([gone.status, gone.headers.get('location')]).toEqual([302, 'https://a.example/bye?state=st']);
    const frames = await app.request('/frames');
    expect(frames.status).toBe(200);
    const html = await frames.text();
    expect(html).toContain('content="2;url=https://a.example/bye?state=st"');
    expect(html).toContain(
      `<iframe src="https://a.example/fc?tenant=1&amp;iss=${encodeURIComponent(issuer)}&amp;sid=s"`,
    );
    const signedOut = await app.request('/signed-out');
    expect(signedOut.headers.get('content-security-policy')).toContain('; frame-src https://b.example:8443;');
    const page = await signedOut.text();
    expect(page).toContain('<p>You are signed out.</p>');
    expect(page).toContain('<iframe src="https://b.example:8443/logout"');
    expect(page).not.toContain('http-equiv');
  });

  it('carries the front-channel clients sealed through an upstream provider', () => {
    const frontchannel = { sessionId: 'sess-1', clientIds: [withSid] };
    const continuation = newContinuation('upstream-logout', 'conn-1', { frontchannel }, 0);
    expect(continuation.frontchannel).toEqual(frontchannel);
    const opened = openContinuation(ctx.box, sealContinuation(ctx.box, continuation), 'upstream-logout', 0);
    expect(opened?.frontchannel).toEqual(frontchannel);
  });
});
