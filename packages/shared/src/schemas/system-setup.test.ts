import { describe, expect, it } from 'vitest';
import { canonicalOrigin, SessionCleanUpInput, SystemSetupInput } from './system-setup.js';

describe('canonicalOrigin', () => {
  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['https://App.Example.COM/', 'https://app.example.com'],
    ['https://app.example.com:443', 'https://app.example.com'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
  ])('reads %s as %s', (text, origin) => {
    expect(canonicalOrigin(text)).toBe(origin);
  });

  it.each([
    'app.example.com',
    'ftp://app.example.com',
    'https://app.example.com/path',
    'https://app.example.com?x=1',
    'https://app.example.com#top',
    'https://user:pw@app.example.com',
    'https://*.example.com',
    'https://',
    '',
  ])('refuses %s', (text) => {
    expect(canonicalOrigin(text)).toBeUndefined();
  });
});

describe('SystemSetupInput', () => {
  it('stores origins in canonical form, once each', () => {
    expect(
      SystemSetupInput.parse({ corsDomains: ['https://A.example.com', 'https://a.example.com/'], iframeDomains: [] }),
    ).toEqual({ corsDomains: ['https://a.example.com'], iframeDomains: [] });
  });

  it('names the entry that is not an origin', () => {
    const result = SystemSetupInput.safeParse({ iframeDomains: ['https://ok.example.com', 'not a domain'] });
    expect(result.error?.issues.map((i) => i.path)).toEqual([['iframeDomains', 1]]);
  });
});

describe('SessionCleanUpInput', () => {
  it('removes only expired data unless told otherwise', () => {
    expect(SessionCleanUpInput.parse({})).toEqual({ expiredOnly: true });
  });

  it('refuses unknown kinds and unknown fields', () => {
    expect(SessionCleanUpInput.safeParse({ kinds: ['cookies'] }).success).toBe(false);
    expect(SessionCleanUpInput.safeParse({ kind: ['sessions'] }).success).toBe(false);
    expect(SessionCleanUpInput.safeParse({ kinds: [] }).success).toBe(false);
  });
});
