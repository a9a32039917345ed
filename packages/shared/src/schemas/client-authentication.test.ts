import { describe, expect, it } from 'vitest';
import { OAuth20Configuration } from './connection.js';

const rsaKey = { kty: 'RSA', kid: 'k1', n: 'sXch', e: 'AQAB', alg: 'RS256', use: 'sig' };
const ecKey = { kty: 'EC', crv: 'P-256', x: 'f83O', y: 'x_FE' };

/** The issues of a configuration, as [path, message]. */
const issues = (config: Record<string, unknown>) =>
  OAuth20Configuration.safeParse({ clientId: 'a', ...config }).error?.issues.map((i) => [i.path.join('.'), i.message]);

describe('OAuth20Configuration client authentication', () => {
  it('takes a tokenEndpointAuthMethod of OpenID Connect Core §9, and no other', () => {
    for (const method of ['client_secret_basic', 'client_secret_post', 'client_secret_jwt']) {
      expect(issues({ tokenEndpointAuthMethod: method })).toBeUndefined();
    }
    expect(issues({ tokenEndpointAuthMethod: 'tls_client_auth' })?.[0][0]).toBe('tokenEndpointAuthMethod');
  });

  it('keeps a JWK Set of public RSA, EC and OKP keys as given', () => {
    const jwks = { keys: [rsaKey, ecKey, { kty: 'OKP', crv: 'Ed25519', x: '11qY' }] };
    expect(
      OAuth20Configuration.parse({ clientId: 'a', jwks, tokenEndpointAuthMethod: 'private_key_jwt' }),
    ).toMatchObject({ jwks, tokenEndpointAuthMethod: 'private_key_jwt' });
  });

  it('refuses private key members in jwks, naming the member', () => {
    const message = 'is a private key member: give public keys only';
    expect(issues({ jwks: { keys: [ecKey, { ...rsaKey, d: 'x', p: 'y' }] } })).toEqual([
      ['jwks.keys.1.d', message],
      ['jwks.keys.1.p', message],
    ]);
    expect(issues({ jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } })).toEqual([
      ['jwks.keys.0.k', message],
      ['jwks.keys.0.kty', 'must be RSA, EC or OKP (a public signature key)'],
    ]);
  });

  it('refuses keys without their public members and an empty set', () => {
    expect(issues({ jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'f83O' }] } })).toEqual([
      ['jwks.keys.0.y', 'is required for kty EC'],
    ]);
    expect(issues({ jwks: { keys: [] } })).toEqual([['jwks.keys', 'must hold at least one key']]);
  });

  it('takes an https jwksUri, plain http only on the loopback interface', () => {
    expect(issues({ jwksUri: 'https://app.example/jwks.json' })).toBeUndefined();
    expect(issues({ jwksUri: 'http://127.0.0.1:8000/jwks' })).toBeUndefined();
    const message = 'must be an https address without a fragment (plain http only on the loopback interface)';
    for (const uri of ['http://app.example/jwks', 'ftp://app.example/jwks', 'https://app.example/jwks#x', 'jwks']) {
      expect(issues({ jwksUri: uri })).toEqual([['jwksUri', message]]);
    }
    expect(issues({ jwksUri: 'http://app.example/jwks', allowPlainHttpRedirectUri: true })).toEqual([
      ['jwksUri', message],
    ]);
  });

  it('wants jwks or jwksUri, not both, and one of them for private_key_jwt', () => {
    expect(issues({ jwks: { keys: [rsaKey] }, jwksUri: 'https://app.example/jwks' })).toEqual([
      ['jwksUri', 'give jwks or jwksUri, not both'],
    ]);
    expect(issues({ tokenEndpointAuthMethod: 'private_key_jwt' })).toEqual([
      ['jwks', 'is required (or jwksUri) when tokenEndpointAuthMethod is private_key_jwt'],
    ]);
    expect(issues({ tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: 'https://app.example/jwks' })).toBeUndefined();
  });

  it('keeps none for public clients, and public clients to none without keys', () => {
    expect(issues({ tokenEndpointAuthMethod: 'none' })).toEqual([
      ['tokenEndpointAuthMethod', 'none is for public clients (publicClient true)'],
    ]);
    expect(issues({ publicClient: true, tokenEndpointAuthMethod: 'none' })).toBeUndefined();
    expect(issues({ publicClient: true, tokenEndpointAuthMethod: 'client_secret_basic' })).toEqual([
      ['tokenEndpointAuthMethod', 'a public client uses none'],
    ]);
    expect(issues({ publicClient: true, jwksUri: 'https://app.example/jwks' })).toEqual([
      ['jwksUri', 'a public client does not authenticate, so has no keys'],
    ]);
  });

  it('wants a client secret of at least 32 bytes for client_secret_jwt', () => {
    expect(issues({ tokenEndpointAuthMethod: 'client_secret_jwt', clientSecret: 's'.repeat(31) })).toEqual([
      ['clientSecret', 'client_secret_jwt needs a client secret of at least 32 bytes'],
    ]);
    expect(issues({ tokenEndpointAuthMethod: 'client_secret_jwt', clientSecret: 's'.repeat(32) })).toBeUndefined();
  });
});
