import { z } from 'zod';
import { roles } from '../catalog/op.js';
import { Thumbprint } from './certificate.js';
import {
  checkClientAuthentication,
  JwksUri,
  loopbackHosts,
  PublicJwkSet,
  TokenEndpointAuthMethod,
} from './client-authentication.js';
import { Guid, Name } from './common.js';

export const connectionTypes = ['Authentication', 'Protocol', 'SecondFactor'] as const;
export const ConnectionType = z.enum(connectionTypes);
export type ConnectionType = z.infer<typeof ConnectionType>;

export const pluginTypes = [
  'UsernamePassword',
  'OAuth20',
  'GenericOidcProvider',
  'Saml20',
  'WsFederation',
  'SmsOtp',
  'EmailOtp',
  'Totp',
] as const;
export const PluginType = z.enum(pluginTypes);
export type PluginType = z.infer<typeof PluginType>;

/**
 * Where a federation connection's metadata (SAML 2.0 or WS-Federation) comes from: the XML itself, or
 * `metadataFileUri`, an http(s) address or an absolute file path (or `file:` URL) on the server's machine.
 * With both, `metadataXml` wins.
 */
export const MetadataReference = z.object({
  metadataFileUri: z.string().trim().max(2048, 'must be at most 2048 characters').nullable().optional(),
  metadataXml: z.string().max(1_048_576, 'must be at most 1 MiB').nullable().optional(),
});
export type MetadataReference = z.infer<typeof MetadataReference>;

/**
 * The plugin-specific configuration, validated by the server per pluginType (unknown fields are refused);
 * OAuth20 connections follow `OAuth20Configuration`.
 */
export const ConnectionConfiguration = z.record(z.string(), z.unknown());
export type ConnectionConfiguration = z.infer<typeof ConnectionConfiguration>;

export const Connection = z.object({
  id: Guid,
  name: z.string(),
  connectionType: ConnectionType,
  pluginType: z.string(),
  enabled: z.boolean(),
  accessOrganizationName: z.string().nullable(),
  /** Entity ID (WS-Federation, SAML 2.0) or client id (generic OIDC provider). */
  entityId: z.string().nullable(),
  /** Secrets (client secrets, keys) are left out. */
  configuration: ConnectionConfiguration,
  scopes: z.array(z.string()),
  claimSets: z.array(z.string()),
  appliedHomeRealmDiscoveryRules: z.array(z.string()),
  dependencyConnectionNames: z.array(z.string()),
  claimTransformations: z.array(z.string()),
  /** Thumbprints of the applied certificates. */
  certificates: z.array(z.string()),
  metadataReference: MetadataReference.nullable(),
});
export type Connection = z.infer<typeof Connection>;

const NameArray = z.array(Name);

export const ConnectionInput = z.object({
  id: Guid.optional(),
  name: Name,
  connectionType: ConnectionType,
  pluginType: PluginType,
  enabled: z.boolean().optional(),
  accessOrganizationName: Name.nullable().optional(),
  entityId: z.string().max(1024, 'must be at most 1024 characters').nullable().optional(),
  configuration: ConnectionConfiguration.optional(),
  scopes: z.array(z.string().min(1).max(256)).optional(),
  claimSets: NameArray.optional(),
  appliedHomeRealmDiscoveryRules: z.array(z.string().max(2048)).optional(),
  dependencyConnectionNames: NameArray.optional(),
  claimTransformations: NameArray.optional(),
  certificates: z.array(z.string().min(1).max(256)).optional(),
  metadataReference: MetadataReference.nullable().optional(),
});
export type ConnectionInput = z.infer<typeof ConnectionInput>;

/**
 * Body of PUT /connections/certificate: the certificates (thumbprints of the database store) applied to a
 * connection; they replace the applied ones (an empty list removes them all).
 */
export const ConnectionCertificatesInput = z.object({
  connectionName: Name,
  certificates: z.array(Thumbprint).max(100, 'must list at most 100 certificates'),
});
export type ConnectionCertificatesInput = z.infer<typeof ConnectionCertificatesInput>;

/** Body of PUT and DELETE /connections/transformation. */
export const ConnectionTransformationInput = z.object({
  connectionName: Name,
  claimTransformationName: Name,
});
export type ConnectionTransformationInput = z.infer<typeof ConnectionTransformationInput>;

/** Body of PUT and DELETE /connections/transformations. */
export const ConnectionTransformationsInput = z.object({
  connectionName: Name,
  claimTransformationNames: z.array(Name).min(1, 'must name at least one transformation'),
});
export type ConnectionTransformationsInput = z.infer<typeof ConnectionTransformationsInput>;

export const grantTypes = [
  'authorization_code',
  'implicit',
  'refresh_token',
  'client_credentials',
  'password',
  'urn:ietf:params:oauth:grant-type:device_code',
] as const;
export const GrantType = z.enum(grantTypes);
export type GrantType = z.infer<typeof GrantType>;

export const signingAlgorithms = ['RS256', 'ES256', 'HS256', 'HS384', 'HS512'] as const;
export const SigningAlgorithm = z.enum(signingAlgorithms);
export type SigningAlgorithm = z.infer<typeof SigningAlgorithm>;

/** Required client-secret length in bytes (UTF-8) of each HMAC algorithm. */
export const hmacKeyBytes = { HS256: 32, HS384: 48, HS512: 64 } as const;

export function isHmacAlgorithm(alg: SigningAlgorithm): alg is keyof typeof hmacKeyBytes {
  return alg in hmacKeyBytes;
}

/** The scopes an OAuth20 connection allows when its `scopes` are not given. */
export const defaultOAuthScopes = ['openid', 'profile', 'email', 'phone', 'address', 'offline_access'] as const;

const Uri = z.string().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters');

/** RFC 6749 §3.1.2 and RFC 8252: an absolute URI without a fragment; custom schemes serve native apps. */
const RedirectUri = Uri.refine((value) => URL.canParse(value) && !value.includes('#'), {
  message: 'must be an absolute URI without a fragment',
});

/** An origin: scheme, host and port only (`https://app.example.com`). */
const Origin = Uri.refine(
  (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol) && new URL(value).origin === value,
  { message: 'must be an origin such as https://app.example.com (no path, no trailing slash)' },
);

/**
 * OpenID Connect Back-Channel Logout 1.0 §2.2 and Front-Channel Logout 1.0 §2: an absolute http or https URI without
 * a fragment.
 */
const LogoutUri = Uri.refine(
  (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol) && !value.includes('#'),
  { message: 'must be an absolute http or https URI without a fragment' },
);

/**
 * The fields of an OAuth20 protocol connection's configuration (as written; `clientSecret` is write-only).
 * Absent fields take the defaults below. Lifetimes are in seconds.
 */
export const OAuth20ConfigurationFields = z.object({
  clientId: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  clientSecret: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters').optional(),
  /**
   * The one way the client authenticates at the token, revocation, introspection and device authorization endpoints;
   * absent: client_secret_basic, client_secret_post (none for a public client) and the JWT assertion methods the
   * client has the material for (client_secret_jwt with a secret kept sealed, private_key_jwt with keys).
   */
  tokenEndpointAuthMethod: TokenEndpointAuthMethod.optional(),
  /** The public keys (a JWK Set) the client signs its private_key_jwt assertions with; or `jwksUri`, not both. */
  jwks: PublicJwkSet.optional(),
  /** The address of the client's JWK Set (https; plain http only on the loopback interface). */
  jwksUri: JwksUri.optional(),
  /** A public client (no secret; PKCE recommended), such as a CLI or a single-page application. */
  publicClient: z.boolean().default(false),
  redirectUris: z.array(RedirectUri).default([]),
  postLogoutRedirectUris: z.array(RedirectUri).default([]),
  allowedGrantTypes: z.array(GrantType).default(['authorization_code', 'refresh_token']),
  allowPlainHttpRedirectUri: z.boolean().default(false),
  requirePkce: z.boolean().default(false),
  /** The client's authorization requests come only by push (RFC 9126): a request without `request_uri` is refused. */
  requirePushedAuthorizationRequests: z.boolean().default(false),
  /** The client's authorization requests come only as signed request objects (RFC 9101 §10.5, `request`). */
  requireSignedRequestObject: z.boolean().default(false),
  allowedCorsOrigins: z.array(Origin).default([]),
  accessTokenLifetime: z.number().int().positive().default(3600),
  refreshTokenLifetime: z.number().int().positive().default(2_592_000),
  /** Longest life of a chain of rotated refresh tokens (default one year). */
  refreshTokenAbsoluteLifetime: z.number().int().positive().optional(),
  signingAlgorithm: SigningAlgorithm.default('RS256'),
  useNameIdAsSub: z.boolean().default(false),
  consentRequired: z.boolean().default(false),
  /** Back-channel logout: a logout token is posted to `backchannelLogoutUri` when a session the client is in ends. */
  enableSessionStatusChangeNotification: z.boolean().default(false),
  /** Where logout tokens are posted (OpenID Connect Back-Channel Logout 1.0); needed by the notification. */
  backchannelLogoutUri: LogoutUri.optional(),
  /**
   * Front-channel logout (OpenID Connect Front-Channel Logout 1.0): the address the browser loads in a hidden iframe
   * when a browser logout ends a session the client is in. Its scheme, host and port are those of one of the
   * `redirectUris`.
   */
  frontchannelLogoutUri: LogoutUri.optional(),
  /** The front-channel logout address gets `iss` and `sid` (the `sid` of the client's ID tokens) in its query. */
  frontchannelLogoutSessionRequired: z.boolean().default(true),
  restApiRole: z.enum(roles).nullable().default(null),
});

type OAuth20Fields = z.infer<typeof OAuth20ConfigurationFields>;

/**
 * The rules across fields: with an HMAC `signingAlgorithm` the client secret is the key and its length must
 * match the algorithm (`hmacKeyBytes`); `enableSessionStatusChangeNotification` needs a `backchannelLogoutUri`;
 * `frontchannelLogoutUri` has the scheme, host and port of one of the `redirectUris` (Front-Channel Logout 1.0 §2);
 * plain-http redirect and logout URIs need `allowPlainHttpRedirectUri` unless they point at the loopback interface
 * (RFC 8252 §7.3); `requireSignedRequestObject` needs keys or a secret kept for HMAC to verify request objects
 * with; the client authentication fields follow `checkClientAuthentication`.
 */
export function checkOAuth20Configuration(config: OAuth20Fields, ctx: z.RefinementCtx): void {
  checkClientAuthentication(config, ctx);
  const alg = config.signingAlgorithm;
  if (isHmacAlgorithm(alg) && config.clientSecret !== undefined) {
    const length = new TextEncoder().encode(config.clientSecret).length;
    if (length !== hmacKeyBytes[alg]) {
      ctx.addIssue({
        code: 'custom',
        path: ['clientSecret'],
        message: `${alg} needs a client secret of ${hmacKeyBytes[alg]} bytes, not ${length}`,
      });
    }
  }
  const canSignRequests =
    config.jwks !== undefined ||
    config.jwksUri !== undefined ||
    config.tokenEndpointAuthMethod === 'client_secret_jwt' ||
    isHmacAlgorithm(alg);
  if (config.requireSignedRequestObject && !canSignRequests) {
    ctx.addIssue({
      code: 'custom',
      path: ['requireSignedRequestObject'],
      message:
        'needs keys to verify request objects with (jwks or jwksUri) or a secret kept for HMAC (client_secret_jwt or an HS signingAlgorithm)',
    });
  }
  if (config.enableSessionStatusChangeNotification && config.backchannelLogoutUri === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['backchannelLogoutUri'],
      message: 'is required when enableSessionStatusChangeNotification is true (logout tokens are posted there)',
    });
  }
  const frontchannel = config.frontchannelLogoutUri;
  if (frontchannel !== undefined && !sharesRedirectOrigin(frontchannel, config)) {
    ctx.addIssue({
      code: 'custom',
      path: ['frontchannelLogoutUri'],
      message: 'must have the scheme, host and port of one of the redirectUris',
    });
  }
  if (config.allowPlainHttpRedirectUri) return;
  const plainHttp = (path: (string | number)[]) =>
    ctx.addIssue({
      code: 'custom',
      path,
      message: 'a plain http address needs allowPlainHttpRedirectUri (except on the loopback interface)',
    });
  for (const field of ['redirectUris', 'postLogoutRedirectUris'] as const) {
    config[field].forEach((uri, index) => {
      if (isPlainHttpOffLoopback(uri)) plainHttp([field, index]);
    });
  }
  if (config.backchannelLogoutUri !== undefined && isPlainHttpOffLoopback(config.backchannelLogoutUri)) {
    plainHttp(['backchannelLogoutUri']);
  }
  if (config.frontchannelLogoutUri !== undefined && isPlainHttpOffLoopback(config.frontchannelLogoutUri)) {
    plainHttp(['frontchannelLogoutUri']);
  }
}

/**
 * The http(s) address has the origin (scheme, host and port) of one of the redirect URIs; one that is no http(s)
 * address at all is the field's own issue.
 */
function sharesRedirectOrigin(uri: string, config: Pick<OAuth20Fields, 'redirectUris'>): boolean {
  if (!URL.canParse(uri) || !/^https?:$/.test(new URL(uri).protocol)) return true;
  const origin = new URL(uri).origin;
  return config.redirectUris.some((redirect) => URL.canParse(redirect) && new URL(redirect).origin === origin);
}

/** A plain-http address off the loopback interface (one that is no address at all is the field's own issue). */
function isPlainHttpOffLoopback(uri: string): boolean {
  if (!URL.canParse(uri)) return false;
  const url = new URL(uri);
  return url.protocol === 'http:' && !loopbackHosts.has(url.hostname);
}

/** Configuration of an OAuth20 protocol connection, with the rules of `checkOAuth20Configuration`. */
export const OAuth20Configuration = OAuth20ConfigurationFields.superRefine(checkOAuth20Configuration);
export type OAuth20Configuration = z.infer<typeof OAuth20Configuration>;
export type OAuth20ConfigurationInput = z.input<typeof OAuth20Configuration>;
