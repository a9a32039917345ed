import { createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiBase } from '../helpers/api.js';
import { Agent, signIn } from './agent.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  rpConfig,
  runtimeServerPerFile,
  testPassword,
  unique,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
let user: Awaited<ReturnType<typeof createUser>>;

const part = (jwt: string, index: 0 | 1) => JSON.parse(Buffer.from(jwt.split('.')[index], 'base64url').toString());
const settle = () => new Promise((resolve) => setTimeout(resolve, 2100));

beforeAll(async () => {
  const definition = await rp.server.admin.post(`${apiBase}/claimdefinitions`, {
    body: { claimType: 'urn:test:department', kind: 'FreeClaimDefinition', variableName: 'department' },
  });
  expect(definition.status).toBe(200);
  user = await createUser(rp.server, {
    displayName: 'Grace Hopper',
    claims: [{ type: 'urn:test:department', value: 'Research' }],
  });
});

/** The code flow through openid-client; returns the tokens. */
async function codeFlow(client: CreatedClient, scope: string, metadata: Partial<oidc.ClientMetadata> = {}) {
  const config = await rpConfig(rp.server, client, 'basic', metadata);
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope, nonce });
  const callback = await signIn(new Agent(rp.server.url), url, user.userName, testPassword);
  return { config, tokens: await oidc.authorizationCodeGrant(config, callback, { expectedNonce: nonce }) };
}

describe('signing algorithms per connection', () => {
  it('signs ES256 with a published key when the connection asks for it', async () => {
    const client = await createClient(rp.server, {
      configuration: { redirectUris: [redirectUri], signingAlgorithm: 'ES256' },
    });
    const { tokens } = await codeFlow(client, 'openid', { id_token_signed_response_alg: 'ES256' });
    for (const jwt of [tokens.id_token!, tokens.access_token]) {
      const [header, payload, signature] = jwt.split('.');
      const { alg, kid } = part(jwt, 0);
      expect(alg).toBe('ES256');
      const jwks = (await (await fetch(`${rp.server.issuer}/jwks.idp`)).json()) as { keys: Record<string, string>[] };
      const jwk = jwks.keys.find((k) => k.kid === kid)!;
      expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      const key = createPublicKey({ key: jwk as never, format: 'jwk' });
      const ok = verify(
        'sha256',
        Buffer.from(`${header}.${payload}`),
        { key, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
      expect(ok).toBe(true);
    }
  });

  for (const [alg, bytes, hash] of [
    ['HS384', 48, 'sha384'],
    ['HS512', 64, 'sha512'],
  ] as const) {
    it(`signs ${alg} with the ${bytes}-byte client secret, verified with that key`, async () => {
      const secret = randomBytes(bytes).toString('base64').slice(0, bytes);
      const client = await createClient(rp.server, {
        configuration: { redirectUris: [redirectUri], signingAlgorithm: alg, clientSecret: secret },
      });
      expect(client.clientSecret).toBe(secret);
      const { tokens, config } = await codeFlow(client, 'openid', { id_token_signed_response_alg: alg });
      for (const jwt of [tokens.id_token!, tokens.access_token]) {
        const [header, payload, signature] = jwt.split('.');
        expect(part(jwt, 0)).toEqual({ alg, typ: 'JWT' });
        const expected = createHmac(hash, Buffer.from(secret, 'utf8'))
          .update(`${header}.${payload}`)
          .digest('base64url');
        expect(signature).toBe(expected);
      }
      expect(tokens.claims()?.sub).toBe(user.id);
      expect(await oidc.fetchUserInfo(config, tokens.access_token, user.id)).toMatchObject({ sub: user.id });
      expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    });
  }
});

describe('claims', () => {
  it('releases the claims of each scope, and nothing of scopes not granted', async () => {
    const client = await createClient(rp.server, { configuration: { redirectUris: [redirectUri] } });
    const { tokens, config } = await codeFlow(client, 'openid profile');
    expect(tokens.claims()).toMatchObject({ name: 'Grace Hopper', preferred_username: user.userName });
    expect(tokens.claims()?.email).toBeUndefined();
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    expect(info.email).toBeUndefined();
    expect(info).toMatchObject({ sub: user.id, name: 'Grace Hopper', preferred_username: user.userName });
  });

  it("adds the claims of the connection's claim sets and applies its claim transformations", async () => {
    const set = unique('Staff');
    expect(
      (await rp.server.admin.post(`${apiBase}/claimsets`, { body: { name: set, claimTypes: ['urn:test:department'] } }))
        .status,
    ).toBe(200);
    const dropEmail = unique('DropEmail');
    const transformation = await rp.server.admin.post(`${apiBase}/transformations`, {
      body: { name: dropEmail, type: 'ExcludedPassThroughClaims', claimTypes: ['email'] },
    });
    expect(transformation.status).toBe(200);
    const client = await createClient(rp.server, {
      configuration: { redirectUris: [redirectUri] },
      claimSets: [set],
      claimTransformations: [dropEmail],
    });
    const { tokens, config } = await codeFlow(client, 'openid email profile');
    expect(tokens.claims()).toMatchObject({ 'urn:test:department': 'Research', name: 'Grace Hopper' });
    expect(tokens.claims()?.email).toBeUndefined();
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    expect(info['urn:test:department']).toBe('Research');
    expect(info.email).toBeUndefined();
  });

  it('uses the NameID value as sub when the connection asks for it', async () => {
    const client = await createClient(rp.server, {
      configuration: { redirectUris: [redirectUri], useNameIdAsSub: true },
    });
    const { tokens, config } = await codeFlow(client, 'openid');
    expect(tokens.claims()?.sub).toBe(user.userName);
    expect(part(tokens.access_token, 1).sub).toBe(user.userName);
    expect(await oidc.fetchUserInfo(config, tokens.access_token, user.userName)).toEqual({ sub: user.userName });
  });
});

describe('CORS', () => {
  it("allows system setup's CORS domains and the client's own origins, on preflights and responses", async () => {
    const put = await rp.server.admin.put(`${apiBase}/systemsetup`, { body: { corsDomains: ['https://spa.example'] } });
    expect(put.status).toBe(200);
    const client = await createClient(rp.server, {
      configuration: {
        allowedGrantTypes: ['client_credentials'],
        redirectUris: [],
        allowedCorsOrigins: ['https://app.example'],
      },
    });
    const another = await createClient(rp.server, {
      configuration: { redirectUris: [redirectUri], allowedCorsOrigins: ['https://another.example'] },
    });
    expect(another.clientId).toBeTruthy();
    await settle();
    const token = `${rp.server.url}/runtime/oauth2/token.idp`;
    const preflight = async (origin: string) =>
      (
        await fetch(token, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type',
          },
        })
      ).headers.get('access-control-allow-origin');
    expect(await preflight('https://app.example')).toBe('https://app.example');
    expect(await preflight('https://spa.example')).toBe('https://spa.example');
    expect(await preflight('https://evil.example')).toBeNull();
    const grant = async (origin: string) => {
      const response = await fetch(token, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret!,
        }),
      });
      expect(response.status).toBe(200);
      return response.headers.get('access-control-allow-origin');
    };
    expect(await grant('https://app.example')).toBe('https://app.example');
    expect(await grant('https://spa.example')).toBe('https://spa.example');
    // Another client's origin is not this client's.
    expect(await grant('https://another.example')).toBeNull();
  });
});

describe('pages', () => {
  const loginPage = async (query: Record<string, string>, headers: Record<string, string> = {}) => {
    const client = await createClient(rp.server, { configuration: { redirectUris: [redirectUri] } });
    const url = `${rp.server.url}/runtime/oauth2/authorize.idp?${new URLSearchParams({
      client_id: client.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      ...query,
    })}`;
    const response = await fetch(url, { headers });
    return { response, html: await response.text() };
  };

  it('speaks Dutch by ui_locales or Accept-Language, English otherwise', async () => {
    expect((await loginPage({ ui_locales: 'nl-NL en' })).html).toContain('Wachtwoord');
    expect((await loginPage({}, { 'accept-language': 'de;q=1, nl;q=0.8, en;q=0.5' })).html).toContain('Wachtwoord');
    const english = await loginPage({ ui_locales: 'fr' }, { 'accept-language': 'fr' });
    expect(english.html).toContain('Password');
    expect(english.html).toContain('<html lang="en">');
  });

  it('shows custom contents, and lets system setup iframe domains frame the pages', async () => {
    const header = await rp.server.admin.put(`${apiBase}/customcontents/login.header`, {
      body: { content: '<strong class="brand">Example Corp</strong>', languageCode: null },
    });
    expect(header.status).toBe(200);
    const dutchOnly = await rp.server.admin.put(`${apiBase}/customcontents/login.footer`, {
      body: { content: '<em>Alleen in het Nederlands</em>', languageCode: 'nl' },
    });
    expect(dutchOnly.status).toBe(200);
    const setup = await rp.server.admin.put(`${apiBase}/systemsetup`, {
      body: { iframeDomains: ['https://portal.example'] },
    });
    expect(setup.status).toBe(200);
    await settle();
    const english = await loginPage({});
    expect(english.html).toContain('<strong class="brand">Example Corp</strong>');
    expect(english.html).not.toContain('Alleen in het Nederlands');
    expect(english.response.headers.get('content-security-policy')).toContain('frame-ancestors https://portal.example');
    expect(english.response.headers.get('x-frame-options')).toBeNull();
    expect((await loginPage({ ui_locales: 'nl' })).html).toContain('<em>Alleen in het Nederlands</em>');
  });
});

describe('JWKS and key rotation', () => {
  it('publishes a new key before it signs, and keeps the old one while its tokens live', async () => {
    const client = await createClient(rp.server, { configuration: { redirectUris: [redirectUri] } });
    const jwks = async () =>
      ((await (await fetch(`${rp.server.issuer}/jwks.idp`)).json()) as { keys: { kid: string; alg: string }[] }).keys;
    const { tokens: before, config } = await codeFlow(client, 'openid');
    const oldKid = part(before.id_token!, 0).kid as string;
    const newKid = await rp.server.ctx.keys.rotate({ publishDelaySeconds: 2, retiredKeyLifetimeSeconds: 3600 });
    const published = (await jwks()).map((k) => k.kid);
    expect(published).toEqual(expect.arrayContaining([oldKid, newKid]));
    // Published, not yet signing.
    const { tokens: during } = await codeFlow(client, 'openid');
    expect(part(during.id_token!, 0).kid).toBe(oldKid);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const { tokens: after } = await codeFlow(client, 'openid');
    expect(part(after.id_token!, 0).kid).toBe(newKid);
    expect(part(after.access_token, 0).kid).toBe(newKid);
    // The old key still verifies what it signed.
    expect((await jwks()).map((k) => k.kid)).toContain(oldKid);
    expect((await oidc.tokenIntrospection(config, before.access_token)).active).toBe(true);
    expect((await oidc.tokenIntrospection(config, after.access_token)).active).toBe(true);
  });
});
