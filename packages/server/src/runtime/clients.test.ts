import { describe, expect, it } from 'vitest';
import { readClientCredentials } from './clients.js';
import { InvalidClient, InvalidRequest } from './oauth-errors.js';

const form = (values: Record<string, string>) => new URLSearchParams(values);
const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

describe('readClientCredentials', () => {
  it('reads the basic header, form-decoding id and secret (RFC 6749 §2.3.1)', () => {
    expect(readClientCredentials(basic('my%20app:s%3Ac+r%2Bet'), form({}))).toEqual({
      clientId: 'my app',
      clientSecret: 's:c r+et',
      method: 'client_secret_basic',
    });
    expect(readClientCredentials(basic('app:pw'), form({ client_id: 'app' })).clientId).toBe('app');
  });

  it('reads client_secret_post and public clients', () => {
    expect(readClientCredentials(undefined, form({ client_id: 'app', client_secret: 'pw' }))).toEqual({
      clientId: 'app',
      clientSecret: 'pw',
      method: 'client_secret_post',
    });
    expect(readClientCredentials(undefined, form({ client_id: 'idsvc-cli' }))).toEqual({
      clientId: 'idsvc-cli',
      method: 'none',
    });
  });

  it('refuses two methods at once, differing ids, a broken header and no client at all', () => {
    expect(() => readClientCredentials(basic('app:pw'), form({ client_secret: 'pw' }))).toThrow(InvalidRequest);
    expect(() => readClientCredentials(basic('app:pw'), form({ client_id: 'other' }))).toThrow(InvalidRequest);
    expect(() => readClientCredentials(basic('no-colon'), form({}))).toThrow(InvalidClient);
    expect(() => readClientCredentials(basic('%E0%A4%A:x'), form({}))).toThrow(InvalidClient);
    expect(() => readClientCredentials(undefined, form({}))).toThrow(InvalidClient);
  });
});
