import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../crypto/secret-box.js';
import { logoutReturnUrl, newContinuation, openContinuation, sealContinuation } from './logout-continuation.js';

const box = new SecretBox(randomBytes(32));
const finish = { returnTo: 'https://app.example/bye', state: 'xyz', uiLocales: 'nl' };

describe('logout continuations', () => {
  it('carry the finish for the interaction lifetime (30 minutes), without empty fields', () => {
    expect(newContinuation('upstream-logout', 'conn-1', finish, 1_000)).toEqual({
      kind: 'upstream-logout',
      connectionId: 'conn-1',
      returnTo: 'https://app.example/bye',
      state: 'xyz',
      uiLocales: 'nl',
      expiresAt: 1_000 + 30 * 60 * 1000,
    });
    expect(newContinuation('saml-logout', 'conn-1', { returnTo: undefined, state: '' }, 0)).toEqual({
      kind: 'saml-logout',
      connectionId: 'conn-1',
      expiresAt: 30 * 60 * 1000,
    });
  });

  it('open what was sealed, of its kind, until it expires', () => {
    const continuation = newContinuation('upstream-logout', 'conn-1', finish, 1_000);
    const sealed = sealContinuation(box, continuation);
    expect(openContinuation(box, sealed, 'upstream-logout', 1_000)).toEqual(continuation);
    expect(openContinuation(box, sealed, 'upstream-logout', continuation.expiresAt - 1)).toEqual(continuation);
    expect(openContinuation(box, sealed, 'upstream-logout', continuation.expiresAt)).toBeUndefined();
    expect(openContinuation(box, sealed, 'saml-logout', 1_000)).toBeUndefined();
  });

  it('open nothing forged, changed, sealed with another key, missing or too long', () => {
    const sealed = sealContinuation(box, newContinuation('upstream-logout', 'conn-1', finish, 1_000));
    const changed = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(openContinuation(box, changed, 'upstream-logout', 1_000)).toBeUndefined();
    expect(openContinuation(new SecretBox(randomBytes(32)), sealed, 'upstream-logout', 1_000)).toBeUndefined();
    expect(openContinuation(box, 'not-sealed', 'upstream-logout', 1_000)).toBeUndefined();
    expect(openContinuation(box, box.seal('"a string"'), 'upstream-logout', 1_000)).toBeUndefined();
    expect(openContinuation(box, undefined, 'upstream-logout', 1_000)).toBeUndefined();
    expect(openContinuation(box, 'v1.'.padEnd(16_385, 'A'), 'upstream-logout', 1_000)).toBeUndefined();
  });

  it('come back to the return address under the base URL', () => {
    expect(logoutReturnUrl('https://id.example')).toBe('https://id.example/runtime/oauth2/logout-return.idp');
  });
});
