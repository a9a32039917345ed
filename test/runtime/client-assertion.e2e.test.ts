import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertionClaims,
  assertionForm,
  type ClientKey,
  clientKey,
  signAssertion,
} from '../../packages/server/src/test-support/client-assertions.js';
import { type HttpEndpoint, startHttpEndpoint } from '../../packages/server/src/test-support/http-endpoint.js';
import { type CreatedClient, createClient, events, runtimeServerPerFile } from './support.js';

const rp = runtimeServerPerFile();
const hmacSecret = 's'.repeat(40);
let inlineKey: ClientKey;
let remoteKey: ClientKey;
let endpoint: HttpEndpoint;
const jwksRequests: string[] = [];
let inline: CreatedClient;
let remote: CreatedClient;
let hmac: CreatedClient;

/** A client of the client_credentials and device code grants, with the given configuration. */
const serviceClient = (configuration: Record<string, unknown>) =>
  createClient(rp.server, {
    configuration: {
      redirectUris: [],
      allowedGrantTypes: ['client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
      ...configuration,
    },
    scopes: ['api', 'openid'],
  });

beforeAll(async () => {
  [inlineKey, remoteKey] = await Promise.all([clientKey('RS256'), clientKey('ES256')]);
  endpoint = await startHttpEndpoint((req, res) => {
    jwksRequests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [remoteKey.publicJwk] }));
  });
  inline = await serviceClient({ tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [inlineKey.publicJwk] } });
  remote = await serviceClient({ tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: `${endpoint.url}/jwks` });
  hmac = await serviceClient({ tokenEndpointAuthMethod: 'client_secret_jwt', clientSecret: hmacSecret });
});
afterAll(async () => {
  await endpoint?.close();
});

/** openid-client's configuration of the client, authenticating as told. */
const rpWith = (client: CreatedClient, auth: oidc.ClientAuth) =>
  oidc.discovery(new URL(rp.server.issuer), client.clientId, {}, auth, { execute: [oidc.allowInsecureRequests] });

const privateKeyJwt = (key: ClientKey) => oidc.PrivateKeyJwt({ key: key.privateKey, kid: key.kid });

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

async function post(path: string, form: URLSearchParams, headers: Record<string, string> = {}) {
  const response = await fetch(`${rp.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

const TOKEN = '/runtime/oauth2/token.idp';

describe('private_key_jwt and client_secret_jwt (openid-client)', () => {
  it('issues a client_credentials token to a private_key_jwt client whose keys are inline (jwks)', async () => {
    const tokens = await oidc.clientCredentialsGrant(await rpWith(inline, privateKeyJwt(inlineKey)), { scope: 'api' });
    expect(tokens.scope).toBe('api');
    expect(decode(tokens.access_token)).toMatchObject({
      sub: inline.clientId,
      client_id: inline.clientId,
      scope: 'api',
    });
  });

  it('reads the keys of a private_key_jwt client at its jwksUri', async () => {
    const config = await rpWith(remote, privateKeyJwt(remoteKey));
    for (let i = 0; i < 2; i++) {
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'api' });
      expect(decode(tokens.access_token)).toMatchObject({ client_id: remote.clientId });
    }
    // jose keeps the set it read: one request for two assertions
    expect(jwksRequests).toEqual(['/jwks']);
  });

  it('issues a token to a client_secret_jwt client (HS256 with its secret)', async () => {
    const tokens = await oidc.clientCredentialsGrant(await rpWith(hmac, oidc.ClientSecretJwt(hmacSecret)), {
      scope: 'api',
    });
    expect(decode(tokens.access_token)).toMatchObject({ client_id: hmac.clientId, scope: 'api' });
  });

  it('introspects and revokes tokens for a client authenticated by private_key_jwt', async () => {
    const config = await rpWith(inline, privateKeyJwt(inlineKey));
    const { access_token } = await oidc.clientCredentialsGrant(config, { scope: 'api' });
    expect(await oidc.tokenIntrospection(config, access_token)).toMatchObject({
      active: true,
      client_id: inline.clientId,
      scope: 'api',
    });
    await oidc.tokenRevocation(config, access_token);
    expect(await oidc.tokenIntrospection(config, access_token)).toEqual({ active: false });
  });

  it('starts a device authorization for a client authenticated by private_key_jwt', async () => {
    const started = await oidc.initiateDeviceAuthorization(await rpWith(remote, privateKeyJwt(remoteKey)), {
      scope: 'openid',
    });
    expect(started.verification_uri).toBe(`${rp.server.url}/runtime/oauth2/device.idp`);
    expect(typeof started.device_code).toBe('string');
  });
});

describe('refusals', () => {
  it('accepts an assertion once: the same one posted again is 401 invalid_client, logged as event 4110', async () => {
    const claims = assertionClaims(inline.clientId, `${rp.server.url}${TOKEN}`);
    const assertion = await signAssertion(claims, inlineKey.privateKey, { alg: 'RS256', kid: inlineKey.kid });
    const form = assertionForm(assertion, { grant_type: 'client_credentials', scope: 'api' });
    const first = await post(TOKEN, form);
    expect(first.status).toBe(200);
    const before = events(rp.server, 4110).length;
    const again = await post(TOKEN, form);
    expect(again).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: 'the client assertion was used before (jti)' },
    });
    expect(again.headers.get('www-authenticate')).toBeNull();
    expect(events(rp.server, 4110).slice(before)).toEqual([
      expect.objectContaining({
        error: 'invalid_client',
        description: 'the client assertion was used before (jti)',
        path: TOKEN,
      }),
    ]);
    expect(JSON.stringify(events(rp.server, 4110))).not.toContain(assertion);
  });

  it('refuses the basic header for a client whose method is private_key_jwt', async () => {
    const basic = `Basic ${Buffer.from(`${inline.clientId}:whatever`).toString('base64')}`;
    const refused = await post(TOKEN, new URLSearchParams({ grant_type: 'client_credentials' }), {
      authorization: basic,
    });
    expect(refused).toMatchObject({
      status: 401,
      body: {
        error: 'invalid_client',
        error_description: 'the client authenticates with private_key_jwt, not client_secret_basic',
      },
    });
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic/);
    const introspection = await post('/runtime/oauth2/introspect.idp', new URLSearchParams({ token: 'x' }), {
      authorization: basic,
    });
    expect(introspection.status).toBe(401);
    expect(introspection.body.error).toBe('invalid_client');
  });

  it('refuses an assertion signed by a key the client does not have', async () => {
    const stranger = await clientKey('RS256');
    const claims = assertionClaims(inline.clientId, rp.server.issuer);
    const assertion = await signAssertion(claims, stranger.privateKey, { alg: 'RS256', kid: inlineKey.kid });
    const refused = await post(TOKEN, assertionForm(assertion, { grant_type: 'client_credentials' }));
    expect(refused).toMatchObject({
      status: 401,
      body: {
        error: 'invalid_client',
        error_description: "the client assertion's signature does not verify with the client's keys",
      },
    });
  });
});

describe('discovery', () => {
  it('names the JWT assertion methods and their algorithms for the token, revocation and introspection endpoints', async () => {
    const response = await fetch(`${rp.server.url}/runtime/oauth2/.well-known/openid-configuration`);
    const doc = (await response.json()) as Record<string, unknown>;
    const methods = ['client_secret_basic', 'client_secret_post', 'client_secret_jwt', 'private_key_jwt'];
    const algorithms = [
      ...['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'],
      ...['HS256', 'HS384', 'HS512'],
    ];
    expect(doc).toMatchObject({
      token_endpoint_auth_methods_supported: [...methods, 'none'],
      revocation_endpoint_auth_methods_supported: [...methods, 'none'],
      introspection_endpoint_auth_methods_supported: methods,
      token_endpoint_auth_signing_alg_values_supported: algorithms,
      revocation_endpoint_auth_signing_alg_values_supported: algorithms,
      introspection_endpoint_auth_signing_alg_values_supported: algorithms,
    });
  });
});
