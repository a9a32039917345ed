import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test-support/context.js';
import { createTestClient } from '../../test-support/fixtures.js';
import { authorizationParams } from './authorization-params.js';
import { storePushedRequest } from './pushed-requests.js';
import { PageError } from './request.js';

let ctx: TestContext;
let app: string;
let other: string;
let pushOnly: string;

beforeAll(async () => {
  ctx = await createTestContext({ seed: false });
  const configuration = { redirectUris: ['https://app.example/cb'] };
  const grants = { allowedGrantTypes: ['authorization_code'], configuration };
  app = (await createTestClient(ctx.db, ctx.box, grants)).clientId;
  other = (await createTestClient(ctx.db, ctx.box, grants)).clientId;
  pushOnly = (
    await createTestClient(ctx.db, ctx.box, {
      ...grants,
      configuration: { ...configuration, requirePushedAuthorizationRequests: true },
    })
  ).clientId;
});
afterAll(() => ctx.close());

const pushedParams = (clientId: string) =>
  new URLSearchParams({ client_id: clientId, response_type: 'code', scope: 'openid', state: 'pushed' });

/** The page error (error and description) the query fails with. */
async function refusal(
  query: Record<string, string> | URLSearchParams,
): Promise<{ error: string; description: string }> {
  const error = await authorizationParams(ctx.db, new URLSearchParams(query)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PageError);
  const { error: code, description, status } = error as PageError;
  expect(status).toBe(400);
  return { error: code, description };
}

describe('a request without request_uri', () => {
  it('is the query itself, whatever it holds (the flow checks it)', async () => {
    const query = new URLSearchParams({ client_id: app, response_type: 'code', request: 'x' });
    expect(await authorizationParams(ctx.db, query)).toBe(query);
    const unknown = new URLSearchParams({ client_id: 'nobody' });
    expect(await authorizationParams(ctx.db, unknown)).toBe(unknown);
  });

  it('is refused for a client that must push its authorization requests', async () => {
    expect(await refusal({ client_id: pushOnly, response_type: 'code' })).toEqual({
      error: 'invalid_request',
      description: 'this client must push its authorization requests',
    });
  });
});

describe('a request with request_uri', () => {
  it("is the pushed request's parameters, the query's others ignored, and only once", async () => {
    for (const clientId of [app, pushOnly]) {
      const { requestUri } = await storePushedRequest(ctx.db, clientId, pushedParams(clientId));
      const query = { client_id: clientId, request_uri: requestUri, state: 'query', scope: 'openid profile' };

      const params = await authorizationParams(ctx.db, new URLSearchParams(query));

      expect(params.toString()).toBe(pushedParams(clientId).toString());
      expect(await refusal(query)).toEqual({
        error: 'invalid_request_uri',
        description: 'request_uri is unknown, expired, already used or not of this client',
      });
    }
  });

  it("refuses another client's request_uri, which stays usable by its own client", async () => {
    const { requestUri } = await storePushedRequest(ctx.db, app, pushedParams(app));

    expect((await refusal({ client_id: other, request_uri: requestUri })).error).toBe('invalid_request_uri');

    const params = await authorizationParams(ctx.db, new URLSearchParams({ client_id: app, request_uri: requestUri }));
    expect(params.get('state')).toBe('pushed');
  });

  it('refuses an expired or unknown request_uri', async () => {
    const { requestUri } = await storePushedRequest(ctx.db, app, pushedParams(app), Date.now() - 61_000);

    expect((await refusal({ client_id: app, request_uri: requestUri })).error).toBe('invalid_request_uri');
    expect((await refusal({ client_id: app, request_uri: 'urn:ietf:params:oauth:request_uri:x' })).error).toBe(
      'invalid_request_uri',
    );
  });

  it('needs exactly one known client_id and one request_uri', async () => {
    const { requestUri } = await storePushedRequest(ctx.db, app, pushedParams(app));
    const unknownClient = { error: 'invalid_request', description: 'unknown client_id' };

    expect(await refusal({ request_uri: requestUri })).toEqual(unknownClient);
    expect(await refusal({ client_id: 'nobody', request_uri: requestUri })).toEqual(unknownClient);
    const twice = new URLSearchParams([
      ['client_id', app],
      ['client_id', app],
      ['request_uri', requestUri],
    ]);
    expect(await refusal(twice)).toEqual(unknownClient);
    const twoUris = new URLSearchParams([
      ['client_id', app],
      ['request_uri', requestUri],
      ['request_uri', requestUri],
    ]);
    expect(await refusal(twoUris)).toEqual({
      error: 'invalid_request',
      description: 'request_uri is given more than once',
    });

    expect(
      (await authorizationParams(ctx.db, new URLSearchParams({ client_id: app, request_uri: requestUri }))).get(
        'client_id',
      ),
    ).toBe(app);
  });
});
