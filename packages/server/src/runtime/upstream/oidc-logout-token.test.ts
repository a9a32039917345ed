import { describe, expect, it } from 'vitest';
import { runtimeDefaults } from '../defaults.js';
import { checkLogoutTokenClaims, logoutTokenHeaderProblem } from './oidc-logout-token.js';

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const now = 1_800_000_000;
const { clockSkew, upstreamLogoutTokenMaxAge: maxAge } = runtimeDefaults;
const valid = { iss: 'https://idp.example', aud: 'rp', iat: now, jti: 'j1', sid: 's1', events: { [EVENT]: {} } };
const check = (claims: Record<string, unknown>) => checkLogoutTokenClaims(claims, now);
const without = (name: keyof typeof valid) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== name));

describe('the header of an upstream logout token', () => {
  it('is taken for the published-key algorithms, typed logout+jwt, JWT or not at all', () => {
    for (const alg of ['RS256', 'PS384', 'ES256', 'ES512', 'EdDSA'])
      expect(logoutTokenHeaderProblem({ alg })).toBeUndefined();
    for (const typ of ['logout+jwt', 'JWT', 'application/logout+jwt']) {
      expect(logoutTokenHeaderProblem({ alg: 'RS256', typ })).toBeUndefined();
    }
  });

  it('is refused unsigned, HMAC-signed, with an unknown algorithm or another type', () => {
    expect(logoutTokenHeaderProblem({ alg: 'none' })).toBe('the logout token is not signed');
    expect(logoutTokenHeaderProblem({})).toBe('the logout token is not signed');
    expect(logoutTokenHeaderProblem({ alg: 'HS256' })).toBe(
      "the logout token is signed with HS256: only the provider's published keys are taken",
    );
    expect(logoutTokenHeaderProblem({ alg: 'RSA1_5' })).toBe('the logout token is signed with RSA1_5');
    expect(logoutTokenHeaderProblem({ alg: 'RS256', typ: 'at+jwt' })).toBe('the logout token is of the type at+jwt');
  });
});

describe('the claims of an upstream logout token', () => {
  it('name the session, the person or both, with the jti and iat', () => {
    expect(check(valid)).toEqual({ jti: 'j1', iat: now, session: 's1' });
    expect(check({ ...without('sid'), sub: 'u1' })).toEqual({ jti: 'j1', iat: now, subject: 'u1' });
    expect(check({ ...valid, sub: 'u1' })).toEqual({ jti: 'j1', iat: now, subject: 'u1', session: 's1' });
  });

  it('take iat within the clock allowance either way, and exp not passed', () => {
    expect(check({ ...valid, iat: now + clockSkew })).toMatchObject({ jti: 'j1' });
    expect(check({ ...valid, iat: now - maxAge - clockSkew })).toMatchObject({ jti: 'j1' });
    expect(check({ ...valid, exp: now - clockSkew + 1 })).toMatchObject({ jti: 'j1' });
    expect(check({ ...valid, events: { [EVENT]: {}, 'urn:other': {} } })).toMatchObject({ jti: 'j1' });
  });

  it('are refused for each missing or wrong part, with the reason', () => {
    const cases: [Record<string, unknown>, string][] = [
      [without('iat'), 'the logout token has no iat'],
      [{ ...valid, iat: String(now) }, 'the logout token has no iat'],
      [{ ...valid, iat: now + clockSkew + 1 }, 'the logout token is issued in the future (iat)'],
      [{ ...valid, iat: now - maxAge - clockSkew - 1 }, 'the logout token is too old (iat)'],
      [{ ...valid, exp: now - clockSkew }, 'the logout token has expired (exp)'],
      [{ ...valid, exp: 'later' }, 'the logout token has expired (exp)'],
      [without('events'), `the logout token has no ${EVENT} event`],
      [{ ...valid, events: { [EVENT]: 'yes' } }, `the logout token has no ${EVENT} event`],
      [{ ...valid, events: { [EVENT]: [] } }, `the logout token has no ${EVENT} event`],
      [{ ...valid, events: [EVENT] }, `the logout token has no ${EVENT} event`],
      [{ ...valid, events: { 'urn:other': {} } }, `the logout token has no ${EVENT} event`],
      [{ ...valid, nonce: 'n' }, 'the logout token carries a nonce'],
      [without('sid'), 'the logout token names neither sub nor sid'],
      [{ ...valid, sid: 7 }, 'the sub or sid of the logout token is not a string'],
      [{ ...valid, sub: '' }, 'the sub or sid of the logout token is not a string'],
      [without('jti'), 'the logout token has no jti'],
      [{ ...valid, jti: '' }, 'the logout token has no jti'],
      [{ ...valid, jti: 'x'.repeat(257) }, 'the jti of the logout token is too long'],
    ];
    for (const [claims, reason] of cases) expect(check(claims)).toBe(reason);
  });
});
