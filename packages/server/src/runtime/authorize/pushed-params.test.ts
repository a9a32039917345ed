import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../crypto/secret-box.js';
import { createLogger } from '../../http/logger.js';
import { signAssertion } from '../../test-support/client-assertions.js';
import { clientObject } from '../../test-support/oauth-client.js';
import type { OAuthClient } from '../clients.js';
import { OAuthError } from '../oauth-errors.js';
import { mustPushAuthorizationRequests, pushedAuthorizationParams, pushedRequestParams } from './pushed-params.js';
import { PageError } from './request.js';

function client(configuration: Record<string, unknown> = {}): OAuthClient {
  return clientObject(
    {
      redirectUris: ['https://app.example/cb'],
      allowedGrantTypes: ['authorization_code'],
      ...configuration,
    },
    ['openid', 'profile'],
  );
}

const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const request = { redirect_uri: 'https://app.example/cb', response_type: 'code', scope: 'openid', state: 's' };
const push = (c: OAuthClient, values: Record<string, string>) =>
  pushedAuthorizationParams(c, new URLSearchParams(values));

/** The OAuth error (error and description) the push of `values` fails with. */
function refusal(c: OAuthClient, values: Record<string, string>): { error: string; description: string } {
  try {
    push(c, values);
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).not.toBeInstanceOf(PageError);
    const { error: code, description, status } = error as OAuthError;
    expect(status).toBe(400);
    return { error: code, description };
  }
  throw new Error('the push was accepted');
}

describe('the parameters of a pushed request', () => {
  it("keeps the authorization request without the client's credentials, client_id that of the client", () => {
    const params = push(client(), {
      ...request,
      client_id: 'app',
      client_secret: 'secret',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: 'eyJ.x.y',
    });

    expect([...params]).toEqual([
      ['redirect_uri', 'https://app.example/cb'],
      ['response_type', 'code'],
      ['scope', 'openid'],
      ['state', 's'],
      ['client_id', 'app'],
    ]);
  });

  it('adds the client_id of a client that authenticated with the Authorization header only', () => {
    expect(push(client(), request).get('client_id')).toBe('app');
  });

  it('refuses a client_id other than the authenticated client, and a request_uri', () => {
    expect(refusal(client(), { ...request, client_id: 'other' })).toEqual({
      error: 'invalid_request',
      description: 'client_id differs from the authenticated client',
    });
    expect(refusal(client(), { ...request, request_uri: 'urn:ietf:params:oauth:request_uri:abc' })).toEqual({
      error: 'invalid_request',
      description: 'request_uri is not allowed in a pushed authorization request',
    });
  });

  it('answers the problems the authorization endpoint shows on its error page as OAuth errors', () => {
    expect(refusal(client(), { ...request, redirect_uri: 'https://evil.example/cb' })).toEqual({
      error: 'invalid_request',
      description: 'redirect_uri is not registered for this client',
    });
    expect(refusal(client({ redirectUris: ['https://a.example/cb', 'https://b.example/cb'] }), {}).description).toBe(
      'redirect_uri is required',
    );
  });

  it('checks the rest as the authorization endpoint does', () => {
    expect(refusal(client(), { ...request, scope: 'openid admin' }).error).toBe('invalid_scope');
    expect(refusal(client(), { ...request, response_type: 'code token' }).error).toBe('unauthorized_client');
    expect(refusal(client(), { ...request, response_type: 'magic' }).error).toBe('unsupported_response_type');
    expect(refusal(client(), { ...request, prompt: 'sometimes' })).toEqual({
      error: 'invalid_request',
      description: 'prompt sometimes is not supported',
    });
    expect(refusal(client({ publicClient: true }), request)).toEqual({
      error: 'invalid_request',
      description: 'this client must use PKCE (code_challenge with S256)',
    });
    const pkce = { ...request, code_challenge: challenge, code_challenge_method: 'S256' };
    expect(push(client({ publicClient: true }), pkce).get('code_challenge')).toBe(challenge);
  });
});

describe('requirePushedAuthorizationRequests', () => {
  it('is true only when the configuration says true', () => {
    expect(mustPushAuthorizationRequests(client({ requirePushedAuthorizationRequests: true }))).toBe(true);
    expect(mustPushAuthorizationRequests(client({ requirePushedAuthorizationRequests: false }))).toBe(false);
    expect(mustPushAuthorizationRequests(client({ requirePushedAuthorizationRequests: 'yes' }))).toBe(false);
    expect(mustPushAuthorizationRequests(client())).toBe(false);
  });
});

describe('a push holding a request object', () => {
  const ctx = {
    box: new SecretBox(randomBytes(32)),
    baseUrl: () => 'https://idp.example',
    logger: createLogger('silent'),
  };
  const secret = 's'.repeat(32);
  const hmacClient = (configuration: Record<string, unknown> = {}) => ({
    ...client(configuration),
    clientSecretEnc: ctx.box.seal(secret),
  });
  const requestObject = (over: Record<string, unknown> = {}) =>
    signAssertion(
      {
        iss: 'app',
        aud: 'https://idp.example/runtime/oauth2',
        client_id: 'app',
        exp: Math.floor(Date.now() / 1000) + 60,
        ...request,
        ...over,
      },
      secret,
      { alg: 'HS256' },
    );

  it("keeps the request object's parameters only, the form's others ignored", async () => {
    const form = new URLSearchParams({ request: await requestObject(), scope: 'openid profile', client_secret: 'x' });

    const params = await pushedRequestParams(ctx, hmacClient(), form);

    expect(Object.fromEntries(params)).toEqual({ client_id: 'app', ...request });
  });

  it('answers a request object that does not verify, or one of another redirect_uri, with a JSON error', async () => {
    const refused = async (form: Record<string, string>, c = hmacClient()) => {
      const error = await pushedRequestParams(ctx, c, new URLSearchParams(form)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OAuthError);
      expect(error).not.toBeInstanceOf(PageError);
      return { error: (error as OAuthError).error, description: (error as OAuthError).description };
    };
    expect(await refused({ request: await requestObject({ aud: 'https://other.example' }) })).toEqual({
      error: 'invalid_request_object',
      description: 'the request object is not addressed to this server (aud must hold the issuer)',
    });
    expect(await refused({ request: await requestObject({ redirect_uri: 'https://evil.example/cb' }) })).toEqual({
      error: 'invalid_request',
      description: 'redirect_uri is not registered for this client',
    });
    expect(await refused({ request: await requestObject(), client_id: 'other' })).toEqual({
      error: 'invalid_request',
      description: 'client_id differs from the authenticated client',
    });
    expect(await refused(request, hmacClient({ requireSignedRequestObject: true }))).toEqual({
      error: 'invalid_request',
      description: 'this client must send its authorization requests as signed request objects (request)',
    });
  });
});
