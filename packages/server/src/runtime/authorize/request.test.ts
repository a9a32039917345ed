import { describe, expect, it } from 'vitest';
import { clientObject } from '../../test-support/oauth-client.js';
import type { OAuthClient } from '../clients.js';
import { InvalidRequest, UnauthorizedClient, UnsupportedResponseType } from '../oauth-errors.js';
import {
  checkRedirectUri,
  normaliseResponseType,
  PageError,
  parseAuthorizationRequest,
  responseModeOf,
  responseTargetOf,
} from './request.js';

function client(configuration: Record<string, unknown> = {}): OAuthClient {
  return clientObject(
    {
      redirectUris: ['https://app.example/cb', 'http://127.0.0.1:8000/cb', 'http://app.example/cb'],
      allowedGrantTypes: ['authorization_code', 'implicit'],
      ...configuration,
    },
    ['openid', 'profile', 'email', 'offline_access'],
  );
}

const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const parse = (c: OAuthClient, values: Record<string, string>) => {
  const params = new URLSearchParams({ client_id: 'app', redirect_uri: 'https://app.example/cb', ...values });
  return parseAuthorizationRequest(c, params, responseTargetOf(c, params));
};

describe('redirect addresses', () => {
  it('accepts only an exactly registered address', () => {
    expect(checkRedirectUri(client(), 'https://app.example/cb')).toBe('https://app.example/cb');
    for (const uri of ['https://app.example/cb/', 'https://app.example/cb?x=1', 'https://evil.example/cb']) {
      expect(() => checkRedirectUri(client(), uri)).toThrow(PageError);
    }
    expect(() => checkRedirectUri(client(), undefined)).toThrow('redirect_uri is required');
    expect(checkRedirectUri(client({ redirectUris: ['https://only.example/cb'] }), undefined)).toBe(
      'https://only.example/cb',
    );
  });

  it('allows plain http only when the client allows it or on the loopback interface', () => {
    expect(() => checkRedirectUri(client(), 'http://app.example/cb')).toThrow('may not use a plain http redirect_uri');
    expect(checkRedirectUri(client(), 'http://127.0.0.1:8000/cb')).toBe('http://127.0.0.1:8000/cb');
    expect(checkRedirectUri(client({ allowPlainHttpRedirectUri: true }), 'http://app.example/cb')).toBe(
      'http://app.example/cb',
    );
  });
});

describe('response types and modes', () => {
  it('normalises the order of the words and knows the served types', () => {
    expect(normaliseResponseType('token id_token code')).toBe('code id_token token');
    expect(normaliseResponseType('token')).toBeUndefined();
    expect(responseModeOf('code', undefined)).toBe('query');
    expect(responseModeOf('code id_token', undefined)).toBe('fragment');
    expect(responseModeOf('code', 'form_post')).toBe('form_post');
  });

  it('needs the implicit grant for tokens from the authorization endpoint', () => {
    expect(() => parse(client({ allowedGrantTypes: ['authorization_code'] }), { response_type: 'code token' })).toThrow(
      UnauthorizedClient,
    );
    expect(() => parse(client(), { response_type: 'token' })).toThrow(UnsupportedResponseType);
  });

  it('refuses query mode with tokens, and an ID token without nonce', () => {
    expect(() => parse(client(), { response_type: 'code id_token', response_mode: 'query', nonce: 'n' })).toThrow(
      'response_mode query is not allowed',
    );
    expect(() => parse(client(), { response_type: 'code id_token', scope: 'openid' })).toThrow('nonce is required');
  });
});

describe('PKCE, prompt and max_age', () => {
  it('requires S256 PKCE of public clients and clients with requirePkce', () => {
    for (const c of [client({ publicClient: true }), client({ requirePkce: true })]) {
      expect(() => parse(c, { response_type: 'code' })).toThrow('must use PKCE');
      expect(() =>
        parse(c, { response_type: 'code', code_challenge: challenge, code_challenge_method: 'plain' }),
      ).toThrow('code_challenge_method must be S256');
      expect(
        parse(c, { response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' }).codeChallenge,
      ).toBe(challenge);
    }
  });

  it('reads prompt, max_age, acr_values and hints', () => {
    const request = parse(client(), {
      response_type: 'code',
      scope: 'openid email',
      prompt: 'login consent',
      max_age: '300',
      acr_values: 'urn:a urn:b',
      login_hint: 'ann',
      state: 's',
    });
    expect(request).toMatchObject({
      responseType: 'code',
      responseMode: 'query',
      scopes: ['openid', 'email'],
      prompt: ['login', 'consent'],
      maxAge: 300,
      acrValues: ['urn:a', 'urn:b'],
      loginHint: 'ann',
      state: 's',
    });
    expect(() => parse(client(), { response_type: 'code', prompt: 'none login' })).toThrow(InvalidRequest);
    expect(() => parse(client(), { response_type: 'code', max_age: '-1' })).toThrow('max_age');
    expect(() => parse(client(), { response_type: 'code', scope: 'admin' })).toThrow('may not ask for: admin');
  });
});
