import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientKey, clientKey, signAssertion } from '../../test-support/client-assertions.js';
import { createTestContext, TEST_BASE_URL, type TestContext } from '../../test-support/context.js';
import { createTestClient } from '../../test-support/fixtures.js';
import { authorizationParams } from './authorization-params.js';
import { storePushedRequest } from './pushed-requests.js';
import { PageError } from './request.js';

let ctx: TestContext;
let app: string;
let other: string;
let pushOnly: string;
let key: ClientKey;
let signing: string;
let signOnly: string;

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
  key = await clientKey('ES256');
  const jwks = { keys: [key.publicJwk] };
  signing = (await createTestClient(ctx.db, ctx.box, { ...grants, configuration: { ...configuration, jwks } }))
    .clientId;
  signOnly = (
    await createTestClient(ctx.db, ctx.box, {
      ...grants,
      configuration: { ...configuration, jwks, requireSignedRequestObject: true },
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
  const error = await authorizationParams(ctx, new URLSearchParams(query)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PageError);
  const { error: code, description, status } = error as PageError;
  expect(status).toBe(400);
  return { error: code, description };
}

describe('a request without request_uri', () => {
  it('is the query itself, whatever it holds (the flow checks it)', async () => {
    const query = new URLSearchParams({ client_id: app, response_type: 'code', prompt: 'sometimes' });
    expect(await authorizationParams(ctx, query)).toBe(query);
    const unknown = new URLSearchParams({ client_id: 'nobody' });
    expect(await authorizationParams(ctx, unknown)).toBe(unknown);
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

      const params = await authorizationParams(ctx, new URLSearchParams(query));

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

    const params = await authorizationParams(ctx, new URLSearchParams({ client_id: app, request_uri: requestUri }));
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
      (await authorizationParams(ctx, new URLSearchParams({ client_id: app, request_uri: requestUri }))).get(
        'client_id',
      ),
    ).toBe(app);
  });
});

/** A request object of the client, signed with its key: a code request with state `signed`, `over` over it. */
function requestObject(clientId: string, over: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: clientId, aud: `${TEST_BASE_URL}/runtime/oauth2`, client_id: clientId, exp: now + 60 };
  const request = { response_type: 'code', scope: 'openid', state: 'signed' };
  return signAssertion({ ...claims, ...request, ...over }, key.privateKey, { alg: 'ES256', kid: key.kid });
}

describe('a request with request', () => {
  it("is the request object's parameters, the query's others ignored", async () => {
    for (const clientId of [signing, signOnly]) {
      const query = { client_id: clientId, request: await requestObject(clientId), state: 'query', scope: 'email' };

      const params = await authorizationParams(ctx, new URLSearchParams(query));

      expect(Object.fromEntries(params)).toEqual({
        client_id: clientId,
        response_type: 'code',
        scope: 'openid',
        state: 'signed',
      });
    }
  });

  it('is refused on the error page when its request object does not verify, or its client is unknown', async () => {
    const tampered = (await requestObject(signing)).replace(
      /\.[^.]+\./,
      `.${Buffer.from('{"scope":"email"}').toString('base64url')}.`,
    );
    expect(await refusal({ client_id: signing, request: tampered })).toEqual({
      error: 'invalid_request_object',
      description: "the request object's signature does not verify with the client's keys",
    });
    expect(await refusal({ client_id: signing, request: await requestObject(signing, { client_id: app }) })).toEqual({
      error: 'invalid_request_object',
      description: "the request object's client_id must be the request's client_id",
    });
    expect(await refusal({ client_id: 'nobody', request: await requestObject(signing) })).toEqual({
      error: 'invalid_request',
      description: 'unknown client_id',
    });
  });

  it('is refused for a client that must push, and requests without one for a client that must sign', async () => {
    expect((await refusal({ client_id: pushOnly, request: await requestObject(pushOnly) })).description).toBe(
      'this client must push its authorization requests',
    );
    expect(await refusal({ client_id: signOnly, response_type: 'code' })).toEqual({
      error: 'invalid_request',
      description: 'this client must send its authorization requests as signed request objects (request)',
    });
  });
});
