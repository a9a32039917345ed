import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../crypto/digest.js';
import { pushedAuthorizationRequests } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../test-support/context.js';
import { runtimeDefaults } from '../defaults.js';
import { consumePushedRequest, REQUEST_URI_PREFIX, storePushedRequest } from './pushed-requests.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ seed: false });
});
afterAll(() => ctx.close());

const params = () =>
  new URLSearchParams({
    client_id: 'app',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: 'https://a.example/cb',
  });

const rowsOf = (requestUri: string) =>
  ctx.db
    .select()
    .from(pushedAuthorizationRequests)
    .where(eq(pushedAuthorizationRequests.requestUriHash, sha256(requestUri.slice(REQUEST_URI_PREFIX.length))));

describe('storing a pushed request', () => {
  it('answers a request_uri of 32 random bytes and keeps their digest, the client and the parameters', async () => {
    const now = Date.now();

    const pushed = await storePushedRequest(ctx.db, 'app', params(), now);

    expect(pushed.expiresIn).toBe(60);
    expect(pushed.expiresIn).toBe(runtimeDefaults.pushedAuthorizationRequestLifetime);
    expect(pushed.requestUri).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/);
    const randomPart = pushed.requestUri.slice(REQUEST_URI_PREFIX.length);
    const rows = await rowsOf(pushed.requestUri);
    expect(rows).toEqual([
      {
        requestUriHash: sha256(randomPart),
        clientId: 'app',
        params: [
          ['client_id', 'app'],
          ['response_type', 'code'],
          ['scope', 'openid'],
          ['redirect_uri', 'https://a.example/cb'],
        ],
        createdAt: expect.any(Date),
        expiresAt: new Date(now + 60_000),
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(randomPart);
  });

  it('gives every push a request_uri of its own', async () => {
    const [a, b] = await Promise.all([
      storePushedRequest(ctx.db, 'app', params()),
      storePushedRequest(ctx.db, 'app', params()),
    ]);
    expect(a.requestUri).not.toBe(b.requestUri);
  });
});

describe('using a pushed request', () => {
  it('returns the parameters once and removes the row', async () => {
    const { requestUri } = await storePushedRequest(ctx.db, 'app', params());

    const first = await consumePushedRequest(ctx.db, 'app', requestUri);
    const second = await consumePushedRequest(ctx.db, 'app', requestUri);

    expect(first?.toString()).toBe(params().toString());
    expect(second).toBeUndefined();
    expect(await rowsOf(requestUri)).toEqual([]);
  });

  it('gives the parameters to one of two concurrent uses only', async () => {
    const { requestUri } = await storePushedRequest(ctx.db, 'app', params());

    const results = await Promise.all([
      consumePushedRequest(ctx.db, 'app', requestUri),
      consumePushedRequest(ctx.db, 'app', requestUri),
    ]);

    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
  });

  it("refuses another client's request_uri and leaves it to its own client", async () => {
    const { requestUri } = await storePushedRequest(ctx.db, 'app', params());

    expect(await consumePushedRequest(ctx.db, 'other', requestUri)).toBeUndefined();

    expect((await consumePushedRequest(ctx.db, 'app', requestUri))?.get('client_id')).toBe('app');
  });

  it('refuses a request_uri once its lifetime has passed, and keeps the row for housekeeping', async () => {
    const pushedAt = Date.now();
    const { requestUri } = await storePushedRequest(ctx.db, 'app', params(), pushedAt);

    expect(await consumePushedRequest(ctx.db, 'app', requestUri, pushedAt + 60_000)).toBeUndefined();
    expect(await rowsOf(requestUri)).toHaveLength(1);
    expect(await consumePushedRequest(ctx.db, 'app', requestUri, pushedAt + 59_000)).toBeDefined();
  });

  it('refuses a request_uri that is unknown or not of the URN form', async () => {
    const { requestUri } = await storePushedRequest(ctx.db, 'app', params());
    const randomPart = requestUri.slice(REQUEST_URI_PREFIX.length);

    for (const wrong of [randomPart, `${REQUEST_URI_PREFIX}`, `${REQUEST_URI_PREFIX}${randomPart}x`, '']) {
      expect(await consumePushedRequest(ctx.db, 'app', wrong)).toBeUndefined();
    }
    expect(await rowsOf(requestUri)).toHaveLength(1);
  });
});
