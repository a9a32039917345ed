import { describe, expect, it } from 'vitest';
import { Api, apiBase, type Json, passwordGrant } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { serverPerFile } from './helpers/fixtures.js';

const setup = `${apiBase}/systemsetup`;
const ctx = serverPerFile();

async function refreshGrant(refreshToken: string) {
  const response = await fetch(new URL('/runtime/oauth2/token.idp', ctx.server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'idsvc-cli', refresh_token: refreshToken }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe('SystemSetup_GetSystemSetup', () => {
  // First in the file: nothing was set yet.
  it('answers 200 with the defaults before anything is set', async () => {
    const response = await ctx.admin.get(setup);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ iframeDomains: [], corsDomains: [], sessionLifetime: 28_800, updatedAt: null });
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).get(setup), 401, 'unauthorized');
  });
});

describe('SystemSetup_PutSystemSetup', () => {
  it('stores origins in canonical form, keeps absent fields, and answers 200 with the setup', async () => {
    const first = await ctx.admin.put(setup, {
      body: {
        iframeDomains: ['https://Portal.Example.com/', 'https://portal.example.com'],
        corsDomains: ['http://localhost:3000'],
        sessionLifetime: 3600,
      },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      iframeDomains: ['https://portal.example.com'],
      corsDomains: ['http://localhost:3000'],
      sessionLifetime: 3600,
      updatedAt: expect.any(String),
    });
    const second = await ctx.admin.put(setup, { body: { corsDomains: ['https://app.example.com:8443'] } });
    expect(second.body).toEqual({
      iframeDomains: ['https://portal.example.com'],
      corsDomains: ['https://app.example.com:8443'],
      sessionLifetime: 3600,
      updatedAt: expect.any(String),
    });
    expect((await ctx.admin.get(setup)).body).toEqual(second.body);
  });

  it('answers 400 for a domain that is not an origin or a lifetime out of range, and changes nothing', async () => {
    const before = (await ctx.admin.get(setup)).body;
    const response = await ctx.admin.put(setup, {
      body: { corsDomains: ['https://ok.example.com', 'app.example.com'] },
    });
    expectError(response, 400, 'invalid_request');
    expect((response.body as { details: Json[] }).details[0]).toMatchObject({ field: 'corsDomains.1' });
    expectError(
      await ctx.admin.put(setup, { body: { iframeDomains: ['https://a.example.com/page'] } }),
      400,
      'invalid_request',
    );
    expectError(await ctx.admin.put(setup, { body: { sessionLifetime: 5 } }), 400, 'invalid_request');
    expect((await ctx.admin.get(setup)).body).toEqual(before);
  });
});

describe('SystemSetup_GetLicense', () => {
  it('answers 200 with the license', async () => {
    const response = await ctx.admin.get(`${setup}/license`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      product: 'idsvc',
      version: '5.4',
      edition: 'Community',
      licensedTo: null,
      validFrom: null,
      validTo: null,
      maxUsers: null,
      features: expect.arrayContaining(['OAuth20', 'UsernamePassword']),
    });
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).get(`${setup}/license`), 401, 'unauthorized');
  });
});

describe('SystemSetup_CleanUpSessionData', () => {
  it('counts every kind, and removes only spent data by default', async () => {
    const response = await ctx.admin.post(`${setup}/cleanupsession`, { body: {} });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(
      ['actionTokens', 'authorizationCodes', 'deviceCodes', 'refreshTokens', 'revokedAccessTokens', 'sessions'].sort(),
    );
  });

  it('removes valid refresh tokens when told to, after which they no longer work', async () => {
    const grant = await passwordGrant(ctx.server.url, 'admin', ctx.server.adminPassword);
    const refreshToken = grant.body.refresh_token as string;
    expect(typeof refreshToken).toBe('string');
    const kept = await ctx.admin.post(`${setup}/cleanupsession`, { body: { kinds: ['refreshTokens'] } });
    expect(kept.body).toEqual({ refreshTokens: 0 });
    const removed = await ctx.admin.post(`${setup}/cleanupsession`, {
      body: { kinds: ['refreshTokens'], expiredOnly: false },
    });
    expect(removed.status).toBe(200);
    expect((removed.body as { refreshTokens: number }).refreshTokens).toBeGreaterThanOrEqual(1);
    expect((await refreshGrant(refreshToken)).body).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers 400 for an unknown kind, an unknown field, a bad date or no body', async () => {
    const path = `${setup}/cleanupsession`;
    expectError(await ctx.admin.post(path, { body: { kinds: ['cookies'] } }), 400, 'invalid_request');
    expectError(await ctx.admin.post(path, { body: { kind: ['sessions'] } }), 400, 'invalid_request');
    expectError(await ctx.admin.post(path, { body: { olderThan: 'yesterday' } }), 400, 'invalid_request');
    expectError(await ctx.admin.post(path), 400, 'invalid_request');
  });
});
