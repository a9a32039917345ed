import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertionClaims,
  assertionForm,
  type ClientKey,
  clientKey,
  signAssertion,
} from '../test-support/client-assertions.js';
import { createTestContext, TEST_BASE_URL, type TestContext } from '../test-support/context.js';
import { createTestClient } from '../test-support/fixtures.js';
import { authenticateClient, readClientCredentials } from './clients.js';
import { OAuthError } from './oauth-errors.js';

const issuer = `${TEST_BASE_URL}/runtime/oauth2`;
const tokenEndpoint = `${issuer}/token.idp`;
let ctx: TestContext;
let key: ClientKey;
let clientId: string;
let otherClientId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  key = await clientKey('RS256');
  const jwks = { keys: [key.publicJwk] };
  ({ clientId } = await createTestClient(ctx.db, ctx.box, { configuration: { jwks } }));
  ({ clientId: otherClientId } = await createTestClient(ctx.db, ctx.box, { configuration: { jwks } }));
});
afterAll(() => ctx.close());

const now = () => Math.floor(Date.now() / 1000);

/** An assertion of the client signed with its key; `over` replaces claims (undefined leaves one out). */
const assertion = (over: Record<string, unknown> = {}, id = clientId) =>
  signAssertion(assertionClaims(id, issuer, over), key.privateKey, { alg: key.alg, kid: key.kid });

const authenticate = (form: URLSearchParams) => authenticateClient(ctx, readClientCredentials(undefined, form));

/** The refusal of the form's client authentication; its description never holds the assertion. */
async function refusal(form: URLSearchParams): Promise<{ status: number; error: string; description: string }> {
  try {
    await authenticate(form);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const signature = (form.get('client_assertion') ?? '').split('.')[2];
    if (signature) expect(error.description).not.toContain(signature);
    return { status: error.status, error: error.error, description: error.description };
  }
  throw new Error('expected a refusal');
}

const invalidClient = (description: string) => ({ status: 401, error: 'invalid_client', description });

describe('client assertion claims', () => {
  it('authenticates the client by an assertion addressed to the issuer, the token endpoint or both', async () => {
    for (const aud of [issuer, tokenEndpoint, ['https://elsewhere.example', issuer]]) {
      const client = await authenticate(assertionForm(await assertion({ aud }), { client_id: clientId }));
      expect(client.clientId).toBe(clientId);
    }
  });

  it('refuses an assertion addressed to another server', async () => {
    for (const aud of ['https://elsewhere.example', `${issuer}/revoke.idp`, [], undefined]) {
      expect(await refusal(assertionForm(await assertion({ aud })))).toEqual(
        invalidClient(
          'the client assertion is not addressed to this server (aud must hold the issuer or the token endpoint URL)',
        ),
      );
    }
  });

  it('refuses an expired assertion and one without exp, and allows for clocks a minute apart', async () => {
    expect(await refusal(assertionForm(await assertion({ exp: now() - 61, iat: now() - 120 })))).toEqual(
      invalidClient('the client assertion has expired (exp)'),
    );
    expect(await refusal(assertionForm(await assertion({ exp: undefined })))).toEqual(
      invalidClient('the client assertion has no exp'),
    );
    const late = await authenticate(assertionForm(await assertion({ exp: now() - 30, iat: now() - 90 })));
    expect(late.clientId).toBe(clientId);
  });

  it('refuses an assertion that lives more than five minutes from now', async () => {
    expect(await refusal(assertionForm(await assertion({ exp: now() + 3600 })))).toEqual(
      invalidClient('the client assertion lives too long (exp more than 300 seconds ahead)'),
    );
    const longest = await authenticate(assertionForm(await assertion({ exp: now() + 300 })));
    expect(longest.clientId).toBe(clientId);
  });

  it('refuses an assertion issued in the future (iat) or not valid yet (nbf)', async () => {
    expect(await refusal(assertionForm(await assertion({ iat: now() + 120 })))).toEqual(
      invalidClient('the client assertion is issued in the future (iat)'),
    );
    expect(await refusal(assertionForm(await assertion({ nbf: now() + 120 })))).toEqual(
      invalidClient('the client assertion is not valid yet (nbf)'),
    );
    expect(await refusal(assertionForm(await assertion({ iat: 'yesterday' })))).toEqual(
      invalidClient("the client assertion's iat is not a number"),
    );
  });

  it('accepts an assertion once per client (jti), and the same jti of another client', async () => {
    const jti = crypto.randomUUID();
    const once = await assertion({ jti });
    expect((await authenticate(assertionForm(once))).clientId).toBe(clientId);
    expect(await refusal(assertionForm(once))).toEqual(invalidClient('the client assertion was used before (jti)'));
    const fresh = await assertion({ jti }, otherClientId);
    expect((await authenticate(assertionForm(fresh))).clientId).toBe(otherClientId);
  });

  it('refuses an assertion without jti or with one longer than 256 characters', async () => {
    expect(await refusal(assertionForm(await assertion({ jti: undefined })))).toEqual(
      invalidClient('the client assertion has no jti'),
    );
    expect(await refusal(assertionForm(await assertion({ jti: 'j'.repeat(257) })))).toEqual(
      invalidClient("the client assertion's jti is too long"),
    );
  });
});

describe('the client an assertion names', () => {
  it('refuses an assertion whose iss differs from its sub, or that has no sub', async () => {
    expect(await refusal(assertionForm(await assertion({ iss: otherClientId })))).toEqual(
      invalidClient("the client assertion's iss and sub differ (both are the client id)"),
    );
    expect(await refusal(assertionForm(await assertion({ sub: undefined })))).toEqual(
      invalidClient('the client assertion has no sub (the client id)'),
    );
  });

  it('refuses a client_id other than the assertion sub', async () => {
    expect(await refusal(assertionForm(await assertion(), { client_id: otherClientId }))).toEqual(
      invalidClient("client_id differs from the client assertion's sub"),
    );
  });

  it('refuses an assertion of an unknown client', async () => {
    expect(await refusal(assertionForm(await assertion({}, 'no-such-client')))).toEqual(
      invalidClient('unknown client'),
    );
  });

  it('does not record the jti of an assertion that is refused', async () => {
    const jti = crypto.randomUUID();
    expect((await refusal(assertionForm(await assertion({ jti, aud: 'https://elsewhere.example' })))).error).toBe(
      'invalid_client',
    );
    expect((await authenticate(assertionForm(await assertion({ jti })))).clientId).toBe(clientId);
  });
});
