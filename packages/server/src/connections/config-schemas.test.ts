import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/api-error.js';
import { checkConnectionType, configurationFields, parseConfiguration } from './config-schemas.js';

function rejection(run: () => unknown): { status: number; details: unknown[] | undefined } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, details: error.details };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('parseConfiguration', () => {
  it('fills the UsernamePassword defaults', () => {
    expect(parseConfiguration('UsernamePassword', {})).toEqual({ maximumFailedAttempts: 10 });
    expect(parseConfiguration('UsernamePassword', { maximumFailedAttempts: 3 })).toEqual({ maximumFailedAttempts: 3 });
  });

  it('refuses an unknown field with a detail naming it', () => {
    expect(rejection(() => parseConfiguration('UsernamePassword', { maximumFailedAttempt: 3 }))).toEqual({
      status: 400,
      details: [{ field: 'configuration.maximumFailedAttempt', message: expect.any(String) }],
    });
  });

  it('fills the OAuth20 defaults of DESIGN 1.5', () => {
    expect(parseConfiguration('OAuth20', { clientId: 'app' })).toEqual({
      clientId: 'app',
      publicClient: false,
      redirectUris: [],
      postLogoutRedirectUris: [],
      allowedGrantTypes: ['authorization_code', 'refresh_token'],
      allowPlainHttpRedirectUri: false,
      requirePkce: false,
      requirePushedAuthorizationRequests: false,
      requireSignedRequestObject: false,
      allowedCorsOrigins: [],
      accessTokenLifetime: 3600,
      refreshTokenLifetime: 2_592_000,
      signingAlgorithm: 'RS256',
      useNameIdAsSub: false,
      consentRequired: false,
      enableSessionStatusChangeNotification: false,
      frontchannelLogoutSessionRequired: true,
      restApiRole: null,
    });
  });

  it('gives one detail per OAuth20 field problem', () => {
    const result = rejection(() =>
      parseConfiguration('OAuth20', { clientId: 'app', allowedGrantTypes: ['magic'], accessTokenLifetime: -1 }),
    );
    expect(result.status).toBe(400);
    expect((result.details as { field: string }[]).map((d) => d.field)).toEqual([
      'configuration.allowedGrantTypes.0',
      'configuration.accessTokenLifetime',
    ]);
  });

  it('refuses an HS384 secret that is not 48 bytes', () => {
    expect(
      rejection(() =>
        parseConfiguration('OAuth20', { clientId: 'a', signingAlgorithm: 'HS384', clientSecret: 'x'.repeat(40) }),
      ),
    ).toEqual({
      status: 400,
      details: [{ field: 'configuration.clientSecret', message: 'HS384 needs a client secret of 48 bytes, not 40' }],
    });
  });

  it('accepts an HS384 secret of 48 bytes and an HS512 secret of 64', () => {
    expect(
      parseConfiguration('OAuth20', { clientId: 'a', signingAlgorithm: 'HS384', clientSecret: 's'.repeat(48) }),
    ).toMatchObject({ signingAlgorithm: 'HS384' });
    expect(
      parseConfiguration('OAuth20', { clientId: 'a', signingAlgorithm: 'HS512', clientSecret: 's'.repeat(64) }),
    ).toMatchObject({ signingAlgorithm: 'HS512' });
  });

  it('refuses a plain-http redirect URI unless allowed or on the loopback interface', () => {
    const base = { clientId: 'a' };
    expect(
      rejection(() => parseConfiguration('OAuth20', { ...base, redirectUris: ['http://app.example/cb'] })),
    ).toEqual({
      status: 400,
      details: [
        { field: 'configuration.redirectUris.0', message: expect.stringContaining('allowPlainHttpRedirectUri') },
      ],
    });
    expect(
      parseConfiguration('OAuth20', {
        ...base,
        redirectUris: ['http://app.example/cb', 'http://127.0.0.1:5000/cb'],
        allowPlainHttpRedirectUri: true,
      }).redirectUris,
    ).toEqual(['http://app.example/cb', 'http://127.0.0.1:5000/cb']);
    expect(parseConfiguration('OAuth20', { ...base, redirectUris: ['http://localhost:8000/cb'] }).redirectUris).toEqual(
      ['http://localhost:8000/cb'],
    );
  });

  it('refuses enableSessionStatusChangeNotification without a backchannelLogoutUri, naming the field', () => {
    let error: unknown;
    try {
      parseConfiguration('OAuth20', { clientId: 'a', enableSessionStatusChangeNotification: true });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      'invalid OAuth20 configuration: configuration.backchannelLogoutUri is required when ' +
        'enableSessionStatusChangeNotification is true (logout tokens are posted there)',
    );
    expect((error as ApiError).details).toEqual([
      { field: 'configuration.backchannelLogoutUri', message: expect.stringContaining('is required') },
    ]);
    expect(
      parseConfiguration('OAuth20', {
        clientId: 'a',
        enableSessionStatusChangeNotification: true,
        backchannelLogoutUri: 'https://app.example/logout',
      }),
    ).toMatchObject({
      enableSessionStatusChangeNotification: true,
      backchannelLogoutUri: 'https://app.example/logout',
    });
  });

  it('refuses a frontchannelLogoutUri off the redirect URIs origins or on plain http, naming the field', () => {
    const frontchannel = (uri: string, redirectUri: string) =>
      rejection(() =>
        parseConfiguration('OAuth20', { clientId: 'a', redirectUris: [redirectUri], frontchannelLogoutUri: uri }),
      );
    expect(frontchannel('https://evil.example/fc', 'https://app.example/cb')).toEqual({
      status: 400,
      details: [
        {
          field: 'configuration.frontchannelLogoutUri',
          message: 'must have the scheme, host and port of one of the redirectUris',
        },
      ],
    });
    const plainHttp = 'a plain http address needs allowPlainHttpRedirectUri (except on the loopback interface)';
    expect(frontchannel('http://app.example/fc', 'http://app.example/cb').details).toEqual([
      { field: 'configuration.redirectUris.0', message: plainHttp },
      { field: 'configuration.frontchannelLogoutUri', message: plainHttp },
    ]);
    const config = {
      clientId: 'a',
      redirectUris: ['https://app.example/cb'],
      frontchannelLogoutUri: 'https://app.example/fc',
    };
    expect(parseConfiguration('OAuth20', config)).toMatchObject({ ...config, frontchannelLogoutSessionRequired: true });
  });

  it('refuses a redirect URI with a fragment and a CORS origin with a path', () => {
    const result = rejection(() =>
      parseConfiguration('OAuth20', {
        clientId: 'a',
        redirectUris: ['https://app.example/cb#x'],
        allowedCorsOrigins: ['https://app.example/path'],
      }),
    );
    expect((result.details as { field: string }[]).map((d) => d.field)).toEqual([
      'configuration.redirectUris.0',
      'configuration.allowedCorsOrigins.0',
    ]);
  });

  it('answers 400, not a failure, for a redirect or back-channel logout URI that is no address', () => {
    const result = rejection(() =>
      parseConfiguration('OAuth20', { clientId: 'a', redirectUris: ['nope'], backchannelLogoutUri: 'nope' }),
    );
    expect(result).toEqual({
      status: 400,
      details: [
        { field: 'configuration.redirectUris.0', message: 'must be an absolute URI without a fragment' },
        {
          field: 'configuration.backchannelLogoutUri',
          message: 'must be an absolute http or https URI without a fragment',
        },
      ],
    });
  });

  it('refuses a secret, client_credentials and HMAC signing for a public client', () => {
    const result = rejection(() =>
      parseConfiguration('OAuth20', {
        clientId: 'a',
        publicClient: true,
        clientSecret: 'x'.repeat(32),
        allowedGrantTypes: ['client_credentials'],
        signingAlgorithm: 'HS256',
      }),
    );
    expect((result.details as { field: string }[]).map((d) => d.field)).toEqual([
      'configuration.clientSecret',
      'configuration.allowedGrantTypes',
      'configuration.signingAlgorithm',
    ]);
  });

  it('requires the issuer and client id of a generic OpenID Connect provider', () => {
    expect(parseConfiguration('GenericOidcProvider', { issuer: 'https://idp.example', clientId: 'c' })).toEqual({
      issuer: 'https://idp.example',
      clientId: 'c',
      scopes: ['openid', 'profile', 'email'],
      usePkce: true,
      enableSessionStatusChangeNotification: false,
      signingCertificates: [],
    });
    const result = rejection(() => parseConfiguration('GenericOidcProvider', { issuer: 'ftp://idp.example' }));
    expect((result.details as { field: string }[]).map((d) => d.field)).toEqual([
      'configuration.issuer',
      'configuration.clientId',
    ]);
  });

  it('requires a SAML 2.0 entity id and checks endpoint addresses', () => {
    expect(parseConfiguration('Saml20', { entityId: 'urn:idp' })).toEqual({
      entityId: 'urn:idp',
      singleSignOnServices: [],
      assertionConsumerServices: [],
      singleLogoutServices: [],
      signAuthenticationRequests: false,
      wantAssertionsSigned: true,
      enableSessionStatusChangeNotification: false,
      signingCertificates: [],
    });
    const result = rejection(() =>
      parseConfiguration('Saml20', { singleSignOnServices: [{ binding: 'urn:b', location: 'not a url' }] }),
    );
    expect((result.details as { field: string }[]).map((d) => d.field)).toEqual([
      'configuration.entityId',
      'configuration.singleSignOnServices.0.location',
    ]);
  });

  it('reads WS-Federation addresses', () => {
    expect(
      parseConfiguration('WsFederation', { entityId: 'urn:sts', singleSignOnUrl: 'https://sts.example/wsfed' }),
    ).toEqual({ entityId: 'urn:sts', singleSignOnUrl: 'https://sts.example/wsfed', signingCertificates: [] });
  });

  it('gives second-factor connections enableAuthenticatorFromMyProfile', () => {
    expect(parseConfiguration('SmsOtp', {})).toEqual({
      enableAuthenticatorFromMyProfile: false,
      codeLength: 6,
      codeLifetime: 300,
      smsTemplateName: 'DefaultSMSOTPCodeTemplate',
    });
    expect(parseConfiguration('EmailOtp', { enableAuthenticatorFromMyProfile: true })).toEqual({
      enableAuthenticatorFromMyProfile: true,
      codeLength: 6,
      codeLifetime: 300,
    });
    expect(parseConfiguration('Totp', {})).toEqual({
      enableAuthenticatorFromMyProfile: true,
      issuer: 'idsvc',
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    });
    expect(rejection(() => parseConfiguration('Totp', { digits: 7 })).status).toBe(400);
  });
});

describe('checkConnectionType', () => {
  it('accepts the connection types of each plugin type and refuses others', () => {
    expect(() => checkConnectionType('OAuth20', 'Protocol')).not.toThrow();
    expect(() => checkConnectionType('Saml20', 'Authentication')).not.toThrow();
    expect(() => checkConnectionType('Saml20', 'Protocol')).not.toThrow();
    expect(rejection(() => checkConnectionType('OAuth20', 'Authentication'))).toEqual({
      status: 400,
      details: [{ field: 'connectionType', message: 'must be Protocol for pluginType OAuth20' }],
    });
    expect(rejection(() => checkConnectionType('Totp', 'Protocol')).status).toBe(400);
  });
});

describe('configurationFields', () => {
  it('names the fields of a plugin type', () => {
    expect(configurationFields('WsFederation')).toEqual([
      'entityId',
      'singleSignOnUrl',
      'replyUrl',
      'singleLogoutUrl',
      'signingCertificates',
    ]);
    expect(configurationFields('OAuth20')).toContain('restApiRole');
  });
});
