import { describe, expect, it } from 'vitest';
import type { SigningKeys } from '../auth/signing-keys.js';
import { jwksRoute } from './jwks-route.js';

describe('jwksRoute', () => {
  it('serves the published keys', async () => {
    const published = { keys: [{ kty: 'RSA', kid: 'k1', n: 'abc', e: 'AQAB', alg: 'RS256', use: 'sig' }] };
    const keys = { jwks: async () => published } as unknown as SigningKeys;
    const res = await jwksRoute({ keys }).request('/runtime/oauth2/jwks.idp');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await res.json()).toEqual(published);
  });
});
