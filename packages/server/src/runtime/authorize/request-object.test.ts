import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../crypto/digest.js';
import { SecretBox } from '../../crypto/secret-box.js';
import { createLogger } from '../../http/logger.js';
import { type ClientKey, clientKey, signAssertion } from '../../test-support/client-assertions.js';
import { clientObject } from '../../test-support/oauth-client.js';
import type { OAuthClient } from '../clients.js';
import { OAuthError } from '../oauth-errors.js';
import {
  checkRequestObjectClaims,
  requestObjectAlgorithms,
  requestObjectParams,
  verifyRequestObject,
} from './request-object.js';

const issuer = 'https://idp.example/runtime/oauth2';
const ctx = {
  box: new SecretBox(randomBytes(32)),
  baseUrl: () => 'https://idp.example',
  logger: createLogger('silent'),
};
const secret = 's'.repeat(32);
let key: ClientKey;
let keyed: OAuthClient;

beforeAll(async () => {
  key = await clientKey('RS256');
  keyed = clientObject({ jwks: { keys: [key.publicJwk] } }, ['openid']);
});

const now = () => Math.floor(Date.now() / 1000);

/** The claims of a request object of the client `app`: a code request, exp a minute ahead; `over` replaces claims. */
function claims(over: Record<string, unknown> = {}): Record<string, unknown> {
  const all: Record<string, unknown> = {
    iss: 'app',
    aud: issuer,
    client_id: 'app',
    response_type: 'code',
    scope: 'openid',
    iat: now(),
    exp: now() + 60,
    ...over,
  };
  for (const [name, value] of Object.entries(all)) if (value === undefined) delete all[name];
  return all;
}

const signed = (over: Record<string, unknown> = {}) =>
  signAssertion(claims(over), key.privateKey, { alg: 'RS256', kid: key.kid });

/** A client whose secret is kept sealed (or, with `digest`, only as its digest). */
function withSecret(value: string, digest = false): OAuthClient {
  const client = clientObject({}, ['openid']);
  return digest ? { ...client, clientSecretHash: sha256(value) } : { ...client, clientSecretEnc: ctx.box.seal(value) };
}

/** The OAuth error (code and description, status 400) the promise fails with. */
async function refusal(promise: Promise<unknown>): Promise<{ error: string; description: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthError);
  const { error: code, description, status } = error as OAuthError;
  expect(status).toBe(400);
  return { error: code, description };
}

const invalidObject = (description: string) => ({ error: 'invalid_request_object', description });

describe('a verified request object', () => {
  it("gives its claims as the parameters, without the JWT's own, numbers and objects as JSON, arrays item by item", async () => {
    const jwt = await signed({ jti: 'j', nbf: now(), max_age: 300, claims: { userinfo: {} }, resource: ['a', 'b'] });

    const params = await verifyRequestObject(ctx, keyed, jwt);

    expect([...params]).toEqual([
      ['client_id', 'app'],
      ['response_type', 'code'],
      ['scope', 'openid'],
      ['max_age', '300'],
      ['claims', '{"userinfo":{}}'],
      ['resource', 'a'],
      ['resource', 'b'],
    ]);
  });

  it("verifies HS256, HS384 and HS512 with the client's sealed secret", async () => {
    const client = withSecret('s'.repeat(64));
    for (const alg of ['HS256', 'HS384', 'HS512']) {
      const jwt = await signAssertion(claims(), 's'.repeat(64), { alg });
      expect((await verifyRequestObject(ctx, client, jwt)).get('scope')).toBe('openid');
    }
  });

  it('takes the request object alone: the parameters beside it are ignored', async () => {
    const query = new URLSearchParams({ client_id: 'app', request: await signed(), scope: 'openid profile' });
    expect((await requestObjectParams(ctx, keyed, query)).get('scope')).toBe('openid');
  });

  it('accepts the public-key and HMAC algorithms, never none', () => {
    expect(requestObjectAlgorithms).toEqual([
      ...['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'],
      ...['HS256', 'HS384', 'HS512'],
    ]);
  });
});

describe('refusals of the request object itself', () => {
  it('refuses alg none, an encrypted request object, an alg not accepted, and what is not a JWT', async () => {
    const unsigned = await signAssertion(claims(), null, { alg: 'none' });
    expect(await refusal(verifyRequestObject(ctx, keyed, unsigned))).toEqual(
      invalidObject('the request object must be signed (alg none is refused)'),
    );
    expect(await refusal(verifyRequestObject(ctx, keyed, 'eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d'))).toEqual(
      invalidObject('the request object is encrypted (JWE), which is not supported: send it signed only'),
    );
    const rs1 = `${Buffer.from('{"alg":"RS1"}').toString('base64url')}.e30.x`;
    expect(await refusal(verifyRequestObject(ctx, keyed, rs1))).toEqual(
      invalidObject("the request object's alg RS1 is not accepted"),
    );
    expect(await refusal(verifyRequestObject(ctx, keyed, 'x'))).toEqual(
      invalidObject('the request object is not a signed JWT'),
    );
  });

  it("refuses a request object signed with a key the client does not have, or whose kid fits none of the client's", async () => {
    const stranger = await clientKey('RS256');
    const forged = await signAssertion(claims(), stranger.privateKey, { alg: 'RS256', kid: key.kid });
    expect(await refusal(verifyRequestObject(ctx, keyed, forged))).toEqual(
      invalidObject("the request object's signature does not verify with the client's keys"),
    );
    const unknownKid = await signAssertion(claims(), stranger.privateKey, { alg: 'RS256', kid: stranger.kid });
    expect(await refusal(verifyRequestObject(ctx, keyed, unknownKid))).toEqual(
      invalidObject("no key of the client's JWK Set fits the request object (kid, alg)"),
    );
    const noKeys = clientObject({}, ['openid']);
    expect(await refusal(verifyRequestObject(ctx, noKeys, await signed()))).toEqual(
      invalidObject('the client has no keys (jwks or jwksUri) to verify an RS256 request object'),
    );
  });

  it('refuses HMAC with a secret kept as a digest only, no secret, a short one, or another secret', async () => {
    const jwt = await signAssertion(claims(), secret, { alg: 'HS256' });
    expect(await refusal(verifyRequestObject(ctx, withSecret(secret, true), jwt))).toEqual(
      invalidObject("the client's secret is kept as a digest, which cannot verify an HS256 request object"),
    );
    expect(await refusal(verifyRequestObject(ctx, clientObject({}, []), jwt))).toEqual(
      invalidObject('the client has no secret to verify an HS256 request object with'),
    );
    const hs512 = await signAssertion(claims(), secret, { alg: 'HS512' });
    expect(await refusal(verifyRequestObject(ctx, withSecret(secret), hs512))).toEqual(
      invalidObject('HS512 needs a client secret of at least 64 bytes'),
    );
    expect(await refusal(verifyRequestObject(ctx, withSecret('t'.repeat(32)), jwt))).toEqual(
      invalidObject("the request object's signature does not verify with the client's secret"),
    );
  });

  it('refuses a request object that holds request or request_uri', async () => {
    for (const over of [{ request: 'x' }, { request_uri: 'urn:ietf:params:oauth:request_uri:x' }]) {
      expect(await refusal(verifyRequestObject(ctx, keyed, await signed(over)))).toEqual(
        invalidObject('the request object must not hold request or request_uri'),
      );
    }
  });
});

describe('refusals of its claims', () => {
  /** Each case: its name, the claims over a good request object's (made when the test runs), the refusal. */
  const cases: [string, () => Record<string, unknown>, string][] = [
    ['iss of another', () => ({ iss: 'other' }), "the request object's iss must be the client id"],
    [
      'aud of another server',
      () => ({ aud: 'https://other.example' }),
      'the request object is not addressed to this server (aud must hold the issuer)',
    ],
    [
      'no aud',
      () => ({ aud: undefined }),
      'the request object is not addressed to this server (aud must hold the issuer)',
    ],
    [
      'client_id of another',
      () => ({ client_id: 'other' }),
      "the request object's client_id must be the request's client_id",
    ],
    [
      'no client_id',
      () => ({ client_id: undefined }),
      "the request object's client_id must be the request's client_id",
    ],
    ['no exp', () => ({ exp: undefined }), 'the request object has no exp'],
    ['expired', () => ({ exp: now() - 61 }), 'the request object has expired (exp)'],
    [
      'too long-lived',
      () => ({ exp: now() + 420 }),
      'the request object lives too long (exp more than 300 seconds ahead)',
    ],
    ['nbf in the future', () => ({ nbf: now() + 120 }), 'the request object is not valid yet (nbf)'],
    ['iat in the future', () => ({ iat: now() + 120 }), 'the request object is issued in the future (iat)'],
    ['nbf not a number', () => ({ nbf: 'soon' }), "the request object's nbf is not a number"],
  ];

  for (const [name, over, description] of cases) {
    it(`refuses ${name}`, async () => {
      expect(await refusal(verifyRequestObject(ctx, keyed, await signed(over())))).toEqual(invalidObject(description));
    });
  }

  it('accepts aud as a list holding the issuer, and exp, nbf and iat within the clock allowance', () => {
    const t = now();
    const expected = { clientId: 'app', issuer, now: t };
    expect(checkRequestObjectClaims(claims({ aud: ['https://x.example', issuer] }), expected)).toBeUndefined();
    expect(checkRequestObjectClaims(claims({ exp: t - 59, nbf: t + 60, iat: t + 60 }), expected)).toBeUndefined();
    expect(checkRequestObjectClaims(claims({ exp: t + 300 + 60 }), expected)).toBeUndefined();
  });
});

describe('the request object of a request', () => {
  it('refuses request with request_uri, and request given twice', async () => {
    const jwt = await signed();
    const both = new URLSearchParams({
      client_id: 'app',
      request: jwt,
      request_uri: 'urn:ietf:params:oauth:request_uri:x',
    });
    expect(await refusal(requestObjectParams(ctx, keyed, both))).toEqual({
      error: 'invalid_request',
      description: 'request and request_uri cannot be used together',
    });
    const twice = new URLSearchParams([
      ['request', jwt],
      ['request', jwt],
    ]);
    expect(await refusal(requestObjectParams(ctx, keyed, twice))).toEqual({
      error: 'invalid_request',
      description: 'request is given more than once',
    });
  });

  it('passes a request without one through, unless the client must sign its requests', async () => {
    const plain = new URLSearchParams({ client_id: 'app', response_type: 'code' });
    expect(await requestObjectParams(ctx, keyed, plain)).toBe(plain);
    const signing = clientObject({ jwks: { keys: [key.publicJwk] }, requireSignedRequestObject: true }, ['openid']);
    expect(await refusal(requestObjectParams(ctx, signing, plain))).toEqual({
      error: 'invalid_request',
      description: 'this client must send its authorization requests as signed request objects (request)',
    });
    expect(
      (await requestObjectParams(ctx, signing, new URLSearchParams({ request: await signed() }))).get('scope'),
    ).toBe('openid');
  });
});
