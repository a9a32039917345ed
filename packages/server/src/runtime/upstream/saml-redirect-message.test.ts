import { describe, expect, it } from 'vitest';
import { redirectParameters } from './saml-redirect-message.js';

describe('redirectParameters', () => {
  it('keeps the raw pairs of the HTTP-Redirect message, still URL-encoded, and nothing else', () => {
    const raw = 'SAMLResponse=ab%2Bc%3D&x=1&RelayState=r1&SigAlg=http%3A%2F%2Fa%23b&Signature=s%2F1%3D&SAMLResponseX=9';
    expect(Object.fromEntries(redirectParameters(raw) ?? [])).toEqual({
      SAMLResponse: 'SAMLResponse=ab%2Bc%3D',
      RelayState: 'RelayState=r1',
      SigAlg: 'SigAlg=http%3A%2F%2Fa%23b',
      Signature: 'Signature=s%2F1%3D',
    });
  });

  it('refuses a message whose parameter comes twice', () => {
    expect(redirectParameters('SAMLResponse=a&SigAlg=b&SAMLResponse=c')).toBeUndefined();
    expect(redirectParameters('Signature=a&Signature=a')).toBeUndefined();
  });

  it('reads an empty query as no parameters', () => {
    expect(redirectParameters('')).toEqual(new Map());
  });
});
