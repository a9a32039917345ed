import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../crypto/secret-box.js';
import { openUpstreamSignIn, sealUpstreamSignIn, type UpstreamSignIn } from './upstream-session.js';

const box = new SecretBox(randomBytes(32));

describe('the upstream sign-in kept on a session', () => {
  it('is sealed (no NameID or ID token in the clear) and opens as it was', () => {
    const signIn: UpstreamSignIn = {
      connectionId: 'c0ffee00-0000-4000-8000-000000000001',
      protocol: 'saml',
      nameId: 'alice@example.test',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      sessionIndex: '_idx1',
    };
    const sealed = sealUpstreamSignIn(box, signIn);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('alice');
    expect(openUpstreamSignIn(box, sealed)).toEqual(signIn);
    const oidc: UpstreamSignIn = { connectionId: 'c1', protocol: 'oidc', idToken: 'a.b.c' };
    expect(openUpstreamSignIn(box, sealUpstreamSignIn(box, oidc))).toEqual(oidc);
  });

  it('opens to nothing for no value, a foreign one, an unknown protocol or no connection', () => {
    expect(openUpstreamSignIn(box, null)).toBeUndefined();
    expect(openUpstreamSignIn(box, undefined)).toBeUndefined();
    expect(
      openUpstreamSignIn(
        new SecretBox(randomBytes(32)),
        sealUpstreamSignIn(box, { connectionId: 'c', protocol: 'wsfed' }),
      ),
    ).toBeUndefined();
    expect(openUpstreamSignIn(box, box.seal(JSON.stringify({ connectionId: 'c', protocol: 'ldap' })))).toBeUndefined();
    expect(openUpstreamSignIn(box, box.seal(JSON.stringify({ protocol: 'oidc' })))).toBeUndefined();
  });

  it('keeps only the known text fields, leaving out empty and other values', () => {
    const sealed = box.seal(
      JSON.stringify({ connectionId: 'c', protocol: 'saml', nameId: '', sessionIndex: 7, idToken: 'x', extra: 'y' }),
    );
    expect(openUpstreamSignIn(box, sealed)).toEqual({ connectionId: 'c', protocol: 'saml', idToken: 'x' });
  });
});
