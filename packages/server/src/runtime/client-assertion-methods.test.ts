import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../http/logger.js';
import {
  assertionClaims,
  assertionForm,
  type ClientKey,
  clientKey,
  signAssertion,
} from '../test-support/client-assertions.js';
import { createTestContext, TEST_BASE_URL, type TestContext } from '../test-support/context.js';
import { createTestClient } from '../test-support/fixtures.js';
import { type HttpEndpoint, startHttpEndpoint } from '../test-support/http-endpoint.js';
import { authenticateClient, readClientCredentials } from './clients.js';
import { OAuthError } from './oauth-errors.js';

const issuer = `${TEST_BASE_URL}/runtime/oauth2`;
const hmacSecret = 'h'.repeat(32);
const warnings: Record<string, unknown>[] = [];
const logger: Logger = { debug() {}, info() {}, warn: (msg, fields) => warnings.push({ msg, ...fields }), error() {} };
let ctx: TestContext;
let keys: Record<'rs' | 'ps' | 'es' | 'ed' | 'stranger', ClientKey>;
let endpoint: HttpEndpoint;
const ids: Record<string, string> = {};

const client = async (name: string, configuration: Record<string, unknown>, secret?: string) => {
  ids[name] = (await createTestClient(ctx.db, ctx.box, { clientSecret: secret, configuration })).clientId;
};

beforeAll(async () => {
  ctx = await createTestContext({ logger });
  const [rs, ps, es, ed, stranger] = await Promise.all(
    ['RS256', 'PS256', 'ES256', 'EdDSA', 'RS256'].map((alg) => clientKey(alg)),
  );
  keys = { rs, ps, es, ed, stranger };
  endpoint = await startHttpEndpoint((req, res) => {
    if (req.url === '/jwks')
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"keys":[${JSON.stringify(rs.publicJwk)}]}`);
    else res.writeHead(500).end();
  });
  const jwks = { keys: [rs.publicJwk, ps.publicJwk, es.publicJwk, ed.publicJwk] };
  await client('keys', { jwks });
  await client('keysOnly', { jwks, tokenEndpointAuthMethod: 'private_key_jwt' });
  await client('remote', { jwksUri: `${endpoint.url}/jwks` });
  await client('broken', { jwksUri: `${endpoint.url}/broken` });
  await client('hmac', { signingAlgorithm: 'HS256' }, hmacSecret);
  await client('digest', {}, hmacSecret);
  await client('basicOnly', { jwks, tokenEndpointAuthMethod: 'client_secret_basic' }, hmacSecret);
});
afterAll(async () => {
  await endpoint?.close();
  await ctx?.close();
});

const signed = (id: string, key: ClientKey | string | null, alg?: string, over: Record<string, unknown> = {}) => {
  const claims = assertionClaims(ids[id], issuer, over);
  if (key === null || typeof key === 'string') return signAssertion(claims, key, { alg: alg ?? 'HS256' });
  return signAssertion(claims, key.privateKey, { alg: alg ?? key.alg, kid: key.kid });
};

const authenticate = (form: URLSearchParams, authorization?: string) =>
  authenticateClient(ctx, readClientCredentials(authorization, form));

async function refusal(form: URLSearchParams, authorization?: string) {
  try {
    await authenticate(form, authorization);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return { status: error.status, error: error.error, description: error.description };
  }
  throw new Error('expected a refusal');
}

const invalidClient = (description: string) => ({ status: 401, error: 'invalid_client', description });
const invalidRequest = (description: string) => ({ status: 400, error: 'invalid_request', description });
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('private_key_jwt', () => {
  it("verifies RS256, PS256, ES256 and EdDSA assertions with the client's jwks", async () => {
    for (const key of [keys.rs, keys.ps, keys.es, keys.ed]) {
      expect((await authenticate(assertionForm(await signed('keys', key)))).clientId).toBe(ids.keys);
    }
  });

  it('refuses an assertion signed by a key the client does not have', async () => {
    const forged = await signAssertion(assertionClaims(ids.keys, issuer), keys.stranger.privateKey, {
      alg: 'RS256',
      kid: keys.rs.kid,
    });
    expect(await refusal(assertionForm(forged))).toEqual(
      invalidClient("the client assertion's signature does not verify with the client's keys"),
    );
    expect(await refusal(assertionForm(await signed('keys', keys.stranger)))).toEqual(
      invalidClient("no key of the client's JWK Set fits the client assertion (kid, alg)"),
    );
  });

  it('refuses alg none and an algorithm it does not accept', async () => {
    expect(await refusal(assertionForm(await signed('keys', null, 'none')))).toEqual(
      invalidClient('the client assertion must be signed (alg none is refused)'),
    );
    const unsigned = await signed('keys', keys.rs, 'RS256');
    const [, payload, signature] = unsigned.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'RSA-OAEP' })).toString('base64url');
    expect(await refusal(assertionForm(`${header}.${payload}.${signature}`))).toEqual(
      invalidClient("the client assertion's alg RSA-OAEP is not accepted"),
    );
  });

  it('reads the keys at jwksUri; keys that cannot be read are invalid_client and a warning', async () => {
    expect((await authenticate(assertionForm(await signed('remote', keys.rs)))).clientId).toBe(ids.remote);
    expect(await refusal(assertionForm(await signed('broken', keys.rs)))).toEqual(
      invalidClient("the client's JWK Set could not be read from its jwksUri"),
    );
    expect(warnings).toContainEqual(
      expect.objectContaining({
        msg: 'client JWK Set could not be read',
        clientId: ids.broken,
        jwksUri: `${endpoint.url}/broken`,
      }),
    );
  });

  it('refuses private_key_jwt of a client that has no keys', async () => {
    expect(await refusal(assertionForm(await signed('digest', keys.rs)))).toEqual(
      invalidClient('the client has no keys for private_key_jwt (jwks or jwksUri)'),
    );
  });
});

describe('client_secret_jwt', () => {
  it('verifies an HS256 assertion with the sealed client secret, and refuses another secret', async () => {
    expect((await authenticate(assertionForm(await signed('hmac', hmacSecret)))).clientId).toBe(ids.hmac);
    expect(await refusal(assertionForm(await signed('hmac', 'x'.repeat(32))))).toEqual(
      invalidClient("the client assertion's signature does not verify with the client's secret"),
    );
  });

  it('refuses HS384 and HS512 with a secret shorter than their hash', async () => {
    expect(await refusal(assertionForm(await signed('hmac', hmacSecret, 'HS512')))).toEqual(
      invalidClient('HS512 needs a client secret of at least 64 bytes'),
    );
  });

  it('refuses a client whose secret is kept as a digest', async () => {
    expect(await refusal(assertionForm(await signed('digest', hmacSecret)))).toEqual(
      invalidClient("the client's secret is kept as a digest, which cannot verify client_secret_jwt"),
    );
  });
});

describe('tokenEndpointAuthMethod', () => {
  it('holds a private_key_jwt client to its method', async () => {
    expect(await refusal(new URLSearchParams(), basic(ids.keysOnly, 'anything'))).toEqual(
      invalidClient('the client authenticates with private_key_jwt, not client_secret_basic'),
    );
    expect(await refusal(new URLSearchParams({ client_id: ids.keysOnly }))).toEqual(
      invalidClient('the client must authenticate with private_key_jwt'),
    );
    expect(await refusal(assertionForm(await signed('keysOnly', hmacSecret)))).toEqual(
      invalidClient('the client authenticates with private_key_jwt, not client_secret_jwt'),
    );
    expect((await authenticate(assertionForm(await signed('keysOnly', keys.es)))).clientId).toBe(ids.keysOnly);
  });

  it('holds a client_secret_basic client to its method though it has keys', async () => {
    expect(await refusal(assertionForm(await signed('basicOnly', keys.rs)))).toEqual(
      invalidClient('the client authenticates with client_secret_basic, not private_key_jwt'),
    );
    const post = new URLSearchParams({ client_id: ids.basicOnly, client_secret: hmacSecret });
    expect(await refusal(post)).toEqual(
      invalidClient('the client authenticates with client_secret_basic, not client_secret_post'),
    );
    expect((await authenticate(new URLSearchParams(), basic(ids.basicOnly, hmacSecret))).clientId).toBe(ids.basicOnly);
  });
});

describe('reading a client assertion', () => {
  it('refuses it together with the basic header or client_secret', async () => {
    const form = assertionForm(await signed('hmac', hmacSecret));
    expect(await refusal(form, basic(ids.hmac, hmacSecret))).toEqual(
      invalidRequest('use one client authentication method, not two'),
    );
    form.set('client_secret', hmacSecret);
    expect(await refusal(form)).toEqual(invalidRequest('use one client authentication method, not two'));
  });

  it('wants both fields, the jwt-bearer type and a JWT', async () => {
    const assertion = await signed('keys', keys.rs);
    expect(await refusal(new URLSearchParams({ client_assertion: assertion }))).toEqual(
      invalidRequest('client_assertion and client_assertion_type go together'),
    );
    const saml = new URLSearchParams({
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
      client_assertion: assertion,
    });
    expect(await refusal(saml)).toEqual(
      invalidClient('client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer'),
    );
    expect(await refusal(assertionForm('not.a.jwt'))).toEqual(
      invalidClient('the client assertion is not a signed JWT'),
    );
  });
});
