import { describe, expect, it } from 'vitest';
import {
  InvalidClient,
  InvalidGrant,
  OAuthError,
  oauthErrorResponse,
  ServerError,
  UnsupportedGrantType,
} from './oauth-errors.js';

describe('OAuth errors', () => {
  it('carry the RFC 6749 code and status', () => {
    expect(
      [new InvalidClient(), new InvalidGrant(), new UnsupportedGrantType(), new ServerError()].map((e) => [
        e.error,
        e.status,
      ]),
    ).toEqual([
      ['invalid_client', 401],
      ['invalid_grant', 400],
      ['unsupported_grant_type', 400],
      ['server_error', 500],
    ]);
    expect(new InvalidGrant('gone')).toBeInstanceOf(OAuthError);
  });

  it('render as { error, error_description } and are never cached', async () => {
    const res = oauthErrorResponse(new InvalidGrant('the code was used'));
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await res.json()).toEqual({ error: 'invalid_grant', error_description: 'the code was used' });
  });

  it('challenge with Basic only for invalid_client after basic authentication', () => {
    expect(oauthErrorResponse(new InvalidClient(), { basicAuthUsed: true }).headers.get('www-authenticate')).toBe(
      'Basic realm="idsvc"',
    );
    expect(oauthErrorResponse(new InvalidClient()).headers.get('www-authenticate')).toBeNull();
    expect(oauthErrorResponse(new InvalidGrant(), { basicAuthUsed: true }).headers.get('www-authenticate')).toBeNull();
  });
});
