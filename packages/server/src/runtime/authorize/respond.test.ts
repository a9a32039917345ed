import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../http/logger.js';
import { createTestContext, type TestContext } from '../../test-support/context.js';
import { AccessDenied, LoginRequired } from '../oauth-errors.js';
import type { ResponseMode } from './request.js';
import { deliver, redirectError } from './respond.js';

// RFC 9207: every authorization response, success or error, carries `iss`, the issuer exactly as discovery names it.

const BASE_URL = 'https://id.example:8443/tenant';
const ISSUER = 'https://id.example:8443/tenant/runtime/oauth2';
const ENCODED_ISSUER = 'https%3A%2F%2Fid.example%3A8443%2Ftenant%2Fruntime%2Foauth2';
const REDIRECT_URI = 'https://app.example/cb?tenant=a';

let ctx: TestContext;
const warnings: Record<string, unknown>[] = [];
const logger: Logger = { debug() {}, info() {}, warn: (msg, fields) => warnings.push({ msg, ...fields }), error() {} };

beforeAll(async () => {
  ctx = await createTestContext({ seed: false, baseUrl: BASE_URL, logger });
});
afterAll(() => ctx.close());

const target = (responseMode: ResponseMode) => ({ redirectUri: REDIRECT_URI, responseMode, state: 'st 1' });

/** Answers GET and POST `/` with `deliver` of a success response in the mode. */
const successApp = (responseMode: ResponseMode) =>
  new Hono().on(['GET', 'POST'], '/', (c) => deliver(ctx, c, target(responseMode), { code: 'c-1', id_token: 'h.p.s' }));

/** Answers `/` with `redirectError` of access_denied in the mode. */
const errorApp = (responseMode: ResponseMode) =>
  new Hono().get('/', (c) => redirectError(ctx, c, target(responseMode), new AccessDenied('no thanks'), 'app-1'));

/** The hidden fields and the action of a form_post page. */
function formOf(html: string): { action: string | undefined; fields: [string, string][] } {
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  const fields = [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/?>/g)].map(
    (m): [string, string] => [m[1], m[2]],
  );
  return { action, fields };
}

describe('the issuer in the authorization response', () => {
  it('query: a success has iss after the parameters and state, the redirect address keeping its query', async () => {
    const response = await successApp('query').request('/');

    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(
      `https://app.example/cb?tenant=a&code=c-1&id_token=h.p.s&state=st+1&iss=${ENCODED_ISSUER}`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(new URL(response.headers.get('location') ?? '').searchParams.get('iss')).toBe(ISSUER);
  });

  it('query: an error has iss, and is logged as event 4110', async () => {
    warnings.length = 0;

    const response = await errorApp('query').request('/');

    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(
      `https://app.example/cb?tenant=a&error=access_denied&error_description=no+thanks&state=st+1&iss=${ENCODED_ISSUER}`,
    );
    expect(warnings).toEqual([
      {
        msg: 'OAuth error access_denied',
        eventId: 4110,
        path: '/',
        error: 'access_denied',
        description: 'no thanks',
        clientId: 'app-1',
      },
    ]);
  });

  it('query: an answer to a posted step is a 303 and has iss too', async () => {
    const response = await successApp('query').request('/', { method: 'POST' });

    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `https://app.example/cb?tenant=a&code=c-1&id_token=h.p.s&state=st+1&iss=${ENCODED_ISSUER}`,
    );
  });

  it('fragment: a success has iss in the fragment, the query left as registered', async () => {
    const response = await successApp('fragment').request('/');

    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(
      `https://app.example/cb?tenant=a#code=c-1&id_token=h.p.s&state=st+1&iss=${ENCODED_ISSUER}`,
    );
  });

  it('fragment: an error has iss in the fragment', async () => {
    const response = await errorApp('fragment').request('/');

    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(
      `https://app.example/cb?tenant=a#error=access_denied&error_description=no+thanks&state=st+1&iss=${ENCODED_ISSUER}`,
    );
  });

  it('form_post: a success posts iss as a hidden field', async () => {
    const response = await successApp('form_post').request('/');

    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    expect(formOf(await response.text())).toEqual({
      action: REDIRECT_URI,
      fields: [
        ['code', 'c-1'],
        ['id_token', 'h.p.s'],
        ['state', 'st 1'],
        ['iss', ISSUER],
      ],
    });
  });

  it('form_post: an error posts iss as a hidden field', async () => {
    const app = new Hono().get('/', (c) =>
      redirectError(ctx, c, target('form_post'), new LoginRequired(), 'app-1', 'en'),
    );

    const response = await app.request('/');

    expect(response.status).toBe(200);
    expect(formOf(await response.text())).toEqual({
      action: REDIRECT_URI,
      fields: [
        ['error', 'login_required'],
        ['error_description', 'the user must sign in'],
        ['state', 'st 1'],
        ['iss', ISSUER],
      ],
    });
  });

  it('iss is always the issuer: a parameter of that name given to deliver does not replace it', async () => {
    const app = new Hono().get('/', (c) =>
      deliver(ctx, c, { redirectUri: 'https://app.example/cb', responseMode: 'query' }, { iss: 'https://evil' }),
    );

    const response = await app.request('/');

    expect(response.headers.get('location')).toBe(`https://app.example/cb?iss=${ENCODED_ISSUER}`);
  });
});
