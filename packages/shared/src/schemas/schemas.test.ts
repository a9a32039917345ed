import { describe, expect, it } from 'vitest';
import { ErrorBody, errorCodes } from '../errors.js';
import { ClaimDefinitionInput } from './claim-definition.js';
import { BatchDeleteResult, PatchBody } from './common.js';
import { OAuth20Configuration } from './connection.js';
import { LanguageCode, SharedConfigurableSettingInput } from './shared-setting.js';
import { UserInput, UserUpdateInput } from './user.js';
import { SearchQuery } from './user-extras.js';

describe('UserInput', () => {
  it('accepts a minimal user and strips unknown keys', () => {
    expect(UserInput.parse({ userName: 'alice', extra: 1 })).toEqual({ userName: 'alice' });
  });

  it('rejects a bad e-mail address', () => {
    const result = UserInput.safeParse({ userName: 'alice', email: 'not-an-email' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].path).toEqual(['email']);
  });

  it('rejects a userName longer than 256 characters', () => {
    expect(UserInput.safeParse({ userName: 'a'.repeat(256) }).success).toBe(true);
    const result = UserInput.safeParse({ userName: 'a'.repeat(257) });
    expect(result.error?.issues[0].path).toEqual(['userName']);
  });

  it('rejects wrong types and an invalid id', () => {
    expect(UserInput.safeParse({ userName: 'alice', active: 'yes' }).success).toBe(false);
    expect(UserInput.safeParse({ userName: 'alice', id: 'not-a-guid' }).success).toBe(false);
    expect(UserInput.safeParse({ userName: 42 }).success).toBe(false);
  });

  it('requires the id on update', () => {
    expect(UserUpdateInput.safeParse({ userName: 'alice' }).success).toBe(false);
    const id = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
    expect(UserUpdateInput.parse({ id, userName: 'alice' })).toEqual({ id, userName: 'alice' });
  });
});

describe('enums', () => {
  it('rejects an unknown claim definition kind', () => {
    expect(ClaimDefinitionInput.safeParse({ claimType: 'urn:x', kind: 'OtherKind' }).success).toBe(false);
    expect(ClaimDefinitionInput.safeParse({ claimType: 'urn:x', kind: 'GroupClaimDefinition' }).success).toBe(true);
  });

  it('names the allowed language codes of shared settings', () => {
    expect(LanguageCode.safeParse('de').error?.issues[0].message).toBe(
      'languageCode is invalid, expected value is one of these values: nl, en',
    );
    // The input keeps any code, so that the service answers other codes with exactly that message.
    const input = { name: 's', resourceKey: 'k', localizedContents: [{ languageCode: 'de' }] };
    expect(SharedConfigurableSettingInput.parse(input)).toEqual(input);
  });
});

describe('OAuth20Configuration', () => {
  it('fills the defaults', () => {
    expect(OAuth20Configuration.parse({ clientId: 'app' })).toEqual({
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

  it('requires an HMAC client secret of the algorithm length', () => {
    expect(
      OAuth20Configuration.safeParse({ clientId: 'a', signingAlgorithm: 'HS384', clientSecret: 'x'.repeat(48) })
        .success,
    ).toBe(true);
    const wrong = OAuth20Configuration.safeParse({
      clientId: 'a',
      signingAlgorithm: 'HS512',
      clientSecret: 'x'.repeat(48),
    });
    expect(wrong.error?.issues[0].message).toBe('HS512 needs a client secret of 64 bytes, not 48');
  });

  it('needs a backchannelLogoutUri for enableSessionStatusChangeNotification, a public client too', () => {
    const missing = OAuth20Configuration.safeParse({ clientId: 'a', enableSessionStatusChangeNotification: true });
    expect(missing.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [
        ['backchannelLogoutUri'],
        'is required when enableSessionStatusChangeNotification is true (logout tokens are posted there)',
      ],
    ]);
    const config = {
      clientId: 'a',
      publicClient: true,
      enableSessionStatusChangeNotification: true,
      backchannelLogoutUri: 'https://app.example/backchannel-logout?x=1',
    };
    expect(OAuth20Configuration.parse(config)).toMatchObject(config);
  });

  it('takes an absolute http(s) backchannelLogoutUri without a fragment, of at most 2048 characters', () => {
    const issues = (uri: string, extra: Record<string, unknown> = {}) =>
      OAuth20Configuration.safeParse({ clientId: 'a', backchannelLogoutUri: uri, ...extra }).error?.issues.map(
        (i) => i.message,
      );
    const uriMessage = 'must be an absolute http or https URI without a fragment';
    expect(issues('/relative')).toEqual([uriMessage]);
    expect(issues('ftp://app.example/logout')).toEqual([uriMessage]);
    expect(issues('com.example.app:/logout')).toEqual([uriMessage]);
    expect(issues('https://app.example/logout#x')).toEqual([uriMessage]);
    expect(issues(`https://app.example/${'a'.repeat(2030)}`)).toEqual(['must be at most 2048 characters']);
    expect(issues('https://app.example/logout')).toBeUndefined();
  });

  it('allows a plain-http backchannelLogoutUri on the loopback interface or with allowPlainHttpRedirectUri', () => {
    const parse = (uri: string, allow = false) =>
      OAuth20Configuration.safeParse({ clientId: 'a', backchannelLogoutUri: uri, allowPlainHttpRedirectUri: allow });
    expect(parse('http://app.example/logout').error?.issues).toEqual([
      expect.objectContaining({
        path: ['backchannelLogoutUri'],
        message: 'a plain http address needs allowPlainHttpRedirectUri (except on the loopback interface)',
      }),
    ]);
    expect(parse('http://app.example/logout', true).success).toBe(true);
    expect(parse('http://127.0.0.1:8080/logout').success).toBe(true);
    expect(parse('http://[::1]:8080/logout').success).toBe(true);
    expect(parse('http://localhost/logout').success).toBe(true);
  });

  it('takes a frontchannelLogoutUri on the scheme, host and port of one of the redirectUris', () => {
    const redirectUris = ['com.example.app:/cb', 'https://app.example/cb', 'https://app.example:8443/cb'];
    const parse = (uri: string, extra: Record<string, unknown> = {}) =>
      OAuth20Configuration.safeParse({ clientId: 'a', redirectUris, frontchannelLogoutUri: uri, ...extra });
    expect(parse('https://app.example/logout?x=1').data).toMatchObject({
      frontchannelLogoutUri: 'https://app.example/logout?x=1',
      frontchannelLogoutSessionRequired: true,
    });
    expect(parse('https://app.example:443/logout').success).toBe(true);
    expect(parse('https://app.example:8443/fc', { frontchannelLogoutSessionRequired: false }).data).toMatchObject({
      frontchannelLogoutSessionRequired: false,
    });
    const otherOrigin = [
      expect.objectContaining({
        path: ['frontchannelLogoutUri'],
        message: 'must have the scheme, host and port of one of the redirectUris',
      }),
    ];
    expect(parse('https://other.example/logout').error?.issues).toEqual(otherOrigin);
    expect(parse('https://app.example:9443/logout').error?.issues).toEqual(otherOrigin);
    expect(parse('http://127.0.0.1/logout').error?.issues).toEqual(otherOrigin);
    expect(parse('https://app.example/logout', { redirectUris: [] }).error?.issues).toEqual(otherOrigin);
    expect(parse('https://app.example/logout#x').error?.issues.map((i) => i.message)).toEqual([
      'must be an absolute http or https URI without a fragment',
    ]);
    expect(parse('com.example.app:/logout').error?.issues.map((i) => i.message)).toEqual([
      'must be an absolute http or https URI without a fragment',
    ]);
  });

  it('allows a plain-http frontchannelLogoutUri on the loopback interface or with allowPlainHttpRedirectUri', () => {
    const parse = (uri: string, allow = false) =>
      OAuth20Configuration.safeParse({
        clientId: 'a',
        redirectUris: [new URL('/cb', uri).toString()],
        frontchannelLogoutUri: uri,
        allowPlainHttpRedirectUri: allow,
      });
    expect(parse('http://app.example/logout').error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['redirectUris', 0], 'a plain http address needs allowPlainHttpRedirectUri (except on the loopback interface)'],
      [
        ['frontchannelLogoutUri'],
        'a plain http address needs allowPlainHttpRedirectUri (except on the loopback interface)',
      ],
    ]);
    expect(parse('http://app.example/logout', true).success).toBe(true);
    expect(parse('http://127.0.0.1:8080/logout').success).toBe(true);
    expect(parse('http://localhost/logout').success).toBe(true);
  });

  it('refuses requireSignedRequestObject on a client with nothing to verify request objects with', () => {
    const parse = (extra: Record<string, unknown>) =>
      OAuth20Configuration.safeParse({ clientId: 'a', requireSignedRequestObject: true, ...extra });
    expect(parse({}).error?.issues.map((i) => [i.path, i.message])).toEqual([
      [
        ['requireSignedRequestObject'],
        'needs keys to verify request objects with (jwks or jwksUri) or a secret kept for HMAC (client_secret_jwt or an HS signingAlgorithm)',
      ],
    ]);
    expect(parse({ jwksUri: 'https://app.example/jwks' }).success).toBe(true);
    expect(parse({ tokenEndpointAuthMethod: 'client_secret_jwt' }).success).toBe(true);
    expect(parse({ signingAlgorithm: 'HS256' }).success).toBe(true);
  });
});

describe('other bodies', () => {
  it('reads PATCH operation keys case-insensitively', () => {
    expect(PatchBody.parse([{ Op: 'Replace', Path: 'active', Value: false }])).toEqual([
      { op: 'replace', path: 'active', value: false },
    ]);
    expect(PatchBody.safeParse([{ op: 'move', path: 'x' }]).success).toBe(false);
    expect(PatchBody.safeParse([]).success).toBe(false);
  });

  it('accepts an empty search query and attributes as a list or a string', () => {
    expect(SearchQuery.parse({})).toEqual({});
    expect(SearchQuery.parse({ attributes: 'userName,email' }).attributes).toBe('userName,email');
    expect(SearchQuery.parse({ attributes: ['userName'] }).attributes).toEqual(['userName']);
  });

  it('describes batch delete results and error bodies', () => {
    const result = { deleted: ['a'], failed: [{ index: 1, id: 'b', error: 'not_found', message: 'no b' }] };
    expect(BatchDeleteResult.parse(result)).toEqual(result);
    expect(errorCodes.invalid_filter).toBe(400);
    expect(errorCodes.not_implemented).toBe(501);
    expect(ErrorBody.safeParse({ error: 'teapot', message: 'x', requestId: 'r' }).success).toBe(false);
  });
});
