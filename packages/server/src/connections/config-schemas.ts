import {
  type ConnectionType,
  checkOAuth20Configuration,
  OAuth20ConfigurationFields,
  type PluginType,
} from '@idsvc/shared';
import { z } from 'zod';
import { badRequest } from '../http/api-error.js';

/**
 * One configuration schema per pluginType. Every schema refuses unknown fields (a misspelt setting is a 400, not
 * a setting silently ignored) and fills the defaults of absent ones, so a stored configuration is complete.
 */

/** The connection types each plugin type may be used as (sign-on is Authentication, protocol is Protocol). */
export const connectionTypesOf: Record<PluginType, readonly ConnectionType[]> = {
  UsernamePassword: ['Authentication'],
  GenericOidcProvider: ['Authentication'],
  Saml20: ['Authentication', 'Protocol'],
  WsFederation: ['Authentication', 'Protocol'],
  OAuth20: ['Protocol'],
  SmsOtp: ['SecondFactor'],
  EmailOtp: ['SecondFactor'],
  Totp: ['SecondFactor'],
};

/** Plugin types whose connections hold (partner signing) certificates. */
export const certificatePluginTypes: readonly string[] = ['Saml20', 'WsFederation', 'GenericOidcProvider'];

/** Plugin types configured from SAML 2.0 or WS-Federation metadata; the only ones PATCH accepts. */
export const federationPluginTypes: readonly string[] = ['Saml20', 'WsFederation'];

const HttpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http or https address' })
  .max(2048, 'must be at most 2048 characters');
const EntityId = z.string().trim().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters');
const TemplateName = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters');

/** Signing certificates: thumbprints of the database store, or certificates (base64 DER or PEM) to store there. */
const SigningCertificates = z
  .array(z.string().trim().min(1, 'must not be empty').max(1_048_576, 'must be at most 1 MiB'))
  .max(20, 'must list at most 20 certificates')
  .default([]);

export const UsernamePasswordConfiguration = z.strictObject({
  /** Consecutive failed password checks that lock a user (DESIGN 1.3). */
  maximumFailedAttempts: z.number().int().min(1).max(1000).default(10),
});

export const OAuth20ServerConfiguration = z
  .strictObject(OAuth20ConfigurationFields.shape)
  .superRefine(checkOAuth20Configuration)
  .superRefine((config, ctx) => {
    if (!config.publicClient) return;
    if (config.clientSecret !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'a public client has no secret' });
    }
    if (config.allowedGrantTypes.includes('client_credentials')) {
      ctx.addIssue({
        code: 'custom',
        path: ['allowedGrantTypes'],
        message: 'a public client cannot use client_credentials',
      });
    }
    if (/^HS/.test(config.signingAlgorithm)) {
      ctx.addIssue({
        code: 'custom',
        path: ['signingAlgorithm'],
        message: 'HMAC signing needs a client secret, which a public client does not have',
      });
    }
  });

export const GenericOidcProviderConfiguration = z.strictObject({
  /** The provider's issuer (its discovery document is `<issuer>/.well-known/openid-configuration`). */
  issuer: HttpUrl,
  clientId: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  /** Write-only; kept encrypted at rest. */
  clientSecret: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters').optional(),
  scopes: z.array(z.string().min(1).max(256)).default(['openid', 'profile', 'email']),
  usePkce: z.boolean().default(true),
  enableSessionStatusChangeNotification: z.boolean().default(false),
  signingCertificates: SigningCertificates,
});

export const SamlEndpoint = z.strictObject({
  binding: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  location: HttpUrl,
  responseLocation: HttpUrl.optional(),
  index: z.number().int().min(0).optional(),
});
export type SamlEndpoint = z.infer<typeof SamlEndpoint>;

export const Saml20Configuration = z.strictObject({
  entityId: EntityId,
  /** A sign-on connection: the identity provider's single sign-on endpoints. */
  singleSignOnServices: z.array(SamlEndpoint).default([]),
  /** A protocol connection: the service provider's assertion consumer endpoints. */
  assertionConsumerServices: z.array(SamlEndpoint).default([]),
  singleLogoutServices: z.array(SamlEndpoint).default([]),
  nameIdFormat: z.string().min(1).max(1024).optional(),
  signAuthenticationRequests: z.boolean().default(false),
  wantAssertionsSigned: z.boolean().default(true),
  enableSessionStatusChangeNotification: z.boolean().default(false),
  signingCertificates: SigningCertificates,
});

export const WsFederationConfiguration = z.strictObject({
  entityId: EntityId,
  /** A sign-on connection: the security token service's passive requestor (sign-on) address. */
  singleSignOnUrl: HttpUrl.optional(),
  /** A protocol connection: the relying party's address tokens are posted to. */
  replyUrl: HttpUrl.optional(),
  singleLogoutUrl: HttpUrl.optional(),
  signingCertificates: SigningCertificates,
});

const CodeLength = z.number().int().min(4).max(10).default(6);
const CodeLifetime = z.number().int().min(30).max(3600).default(300);

export const SmsOtpConfiguration = z.strictObject({
  enableAuthenticatorFromMyProfile: z.boolean().default(false),
  codeLength: CodeLength,
  /** Seconds a code stays valid. */
  codeLifetime: CodeLifetime,
  smsTemplateName: TemplateName.default('DefaultSMSOTPCodeTemplate'),
});

export const EmailOtpConfiguration = z.strictObject({
  enableAuthenticatorFromMyProfile: z.boolean().default(false),
  codeLength: CodeLength,
  codeLifetime: CodeLifetime,
  emailTemplateName: TemplateName.optional(),
});

export const TotpConfiguration = z.strictObject({
  enableAuthenticatorFromMyProfile: z.boolean().default(true),
  /** The name authenticator apps show beside the account. */
  issuer: z.string().min(1).max(256).default('idsvc'),
  digits: z.union([z.literal(6), z.literal(8)]).default(6),
  period: z.number().int().min(15).max(120).default(30),
  algorithm: z.enum(['SHA1', 'SHA256', 'SHA512']).default('SHA1'),
});

export const configurationSchemas = {
  UsernamePassword: UsernamePasswordConfiguration,
  OAuth20: OAuth20ServerConfiguration,
  GenericOidcProvider: GenericOidcProviderConfiguration,
  Saml20: Saml20Configuration,
  WsFederation: WsFederationConfiguration,
  SmsOtp: SmsOtpConfiguration,
  EmailOtp: EmailOtpConfiguration,
  Totp: TotpConfiguration,
} as const satisfies Record<PluginType, z.ZodType>;

export type ConfigurationOf<P extends PluginType> = z.output<(typeof configurationSchemas)[P]>;

/** Names of the configuration fields of a plugin type (PATCH paths `configuration.<field>`). */
export function configurationFields(pluginType: PluginType): string[] {
  const schema = configurationSchemas[pluginType];
  return Object.keys('shape' in schema ? schema.shape : OAuth20ConfigurationFields.shape);
}

/** 400 unless the plugin type may be used as the connection type. */
export function checkConnectionType(pluginType: PluginType, connectionType: ConnectionType): void {
  const allowed = connectionTypesOf[pluginType];
  if (!allowed.includes(connectionType)) {
    throw badRequest(`a ${pluginType} connection is of connectionType ${allowed.join(' or ')}`, [
      { field: 'connectionType', message: `must be ${allowed.join(' or ')} for pluginType ${pluginType}` },
    ]);
  }
}

/**
 * The configuration validated against its plugin type's schema, defaults filled; a 400 with one detail per
 * problem (`configuration.<field>`) otherwise.
 */
export function parseConfiguration(pluginType: PluginType, raw: unknown): Record<string, unknown> {
  const parsed = configurationSchemas[pluginType].safeParse(raw ?? {});
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const details = parsed.error.issues.map((issue) => ({
    field: ['configuration', ...issue.path.map(String), ...unrecognized(issue)].join('.'),
    message: issue.message,
  }));
  throw badRequest(`invalid ${pluginType} configuration: ${details[0].field} ${details[0].message}`, details);
}

function unrecognized(issue: z.core.$ZodIssue): string[] {
  return issue.code === 'unrecognized_keys' && issue.keys.length === 1 ? [issue.keys[0]] : [];
}
