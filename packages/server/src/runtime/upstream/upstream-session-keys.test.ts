import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { upstreamSessionKey, upstreamSessionKeys, upstreamSubjectKey } from './upstream-session-keys.js';

const connectionId = 'c0ffee00-0000-4000-8000-000000000001';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** An unsigned JWT of the claims (the keys read an ID token verified at sign-in). */
const idToken = (claims: Record<string, unknown>) =>
  `${['{"alg":"RS256"}', JSON.stringify(claims)].map((part) => Buffer.from(part).toString('base64url')).join('.')}.sig`;

describe('the digests a session names its upstream sign-in by', () => {
  it('are SHA-256 hex of the connection id, NUL and the value', () => {
    expect(upstreamSubjectKey(connectionId, 'alice@example.test')).toBe(sha256(`${connectionId}\0alice@example.test`));
    expect(upstreamSessionKey(connectionId, '_idx1')).toBe(sha256(`${connectionId}\0_idx1`));
    expect(upstreamSubjectKey(connectionId, 'x')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differ between connections for one value', () => {
    const other = 'c0ffee00-0000-4000-8000-000000000002';
    expect(upstreamSubjectKey(connectionId, 'alice')).not.toBe(upstreamSubjectKey(other, 'alice'));
    expect(upstreamSessionKey(connectionId, 'alice')).not.toBe(upstreamSessionKey(other, 'alice'));
  });

  it('of a SAML sign-in: its NameID and SessionIndex', () => {
    const keys = upstreamSessionKeys({
      connectionId,
      protocol: 'saml',
      nameId: 'alice@example.test',
      sessionIndex: '_i',
    });
    expect(keys).toEqual({
      upstreamSubjectKey: upstreamSubjectKey(connectionId, 'alice@example.test'),
      upstreamSessionKey: upstreamSessionKey(connectionId, '_i'),
    });
    expect(upstreamSessionKeys({ connectionId, protocol: 'wsfed', nameId: 'bob' })).toEqual({
      upstreamSubjectKey: upstreamSubjectKey(connectionId, 'bob'),
    });
  });

  it("of an OpenID Connect sign-in: the ID token's sub and sid", () => {
    const token = idToken({ iss: 'https://idp.example', sub: 'user-1', sid: 'session-9' });
    expect(upstreamSessionKeys({ connectionId, protocol: 'oidc', idToken: token })).toEqual({
      upstreamSubjectKey: upstreamSubjectKey(connectionId, 'user-1'),
      upstreamSessionKey: upstreamSessionKey(connectionId, 'session-9'),
    });
    expect(upstreamSessionKeys({ connectionId, protocol: 'oidc', idToken: idToken({ sub: 'user-1' }) })).toEqual({
      upstreamSubjectKey: upstreamSubjectKey(connectionId, 'user-1'),
    });
  });

  it('are left out for values the sign-in lacks, empty or not text', () => {
    expect(upstreamSessionKeys({ connectionId, protocol: 'oidc' })).toEqual({});
    expect(upstreamSessionKeys({ connectionId, protocol: 'oidc', idToken: 'not a token' })).toEqual({});
    expect(upstreamSessionKeys({ connectionId, protocol: 'oidc', idToken: idToken({ sub: 7, sid: '' }) })).toEqual({});
    expect(upstreamSessionKeys({ connectionId, protocol: 'saml', nameId: '', sessionIndex: '' })).toEqual({});
  });
});
