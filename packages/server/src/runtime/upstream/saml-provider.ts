import { type CacheProvider, SAML, type SamlConfig, ValidateInResponseTo } from '@node-saml/node-saml';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { connections } from '../../db/schema/index.js';
import { runtimeDefaults, runtimePaths } from '../defaults.js';
import { usableCertificates } from './connection-certificates.js';
import { UpstreamError } from './provider.js';
import { frontChannelService, HTTP_POST_BINDING, type SamlBinding } from './saml-binding.js';
import { type SamlCredential, samlCredential } from './saml-credential.js';

/** An upstream SAML 2.0 identity provider (a Saml20 authentication connection), ready to use. */
export interface SamlIdentityProvider {
  connectionId: string;
  name: string;
  /** The identity provider's entity id: the Issuer its assertions must carry. */
  entityId: string;
  /** Its single sign-on service: of the HTTP-Redirect binding when it has one, else of the HTTP-POST binding. */
  ssoUrl: string;
  ssoBinding: SamlBinding;
  /** Its single logout service, if it has one: HTTP-Redirect when it has one, else HTTP-POST. */
  sloUrl?: string;
  sloBinding?: SamlBinding;
  /** Where a LogoutResponse of this service goes: that service's ResponseLocation when set, else its Location. */
  sloResponseUrl?: string;
  /** PEM certificates whose keys may sign its responses and assertions. */
  certificates: string[];
  nameIdFormat?: string;
  wantAssertionsSigned: boolean;
  /** Whether the AuthnRequests sent to it are signed with this service's credential. */
  signAuthenticationRequests: boolean;
}

/** This service as a SAML 2.0 service provider: its entity id, its assertion consumer service and its credential. */
export interface SamlServiceProvider {
  entityId: string;
  acsUrl: string;
  /** The single logout service (HTTP-Redirect and HTTP-POST) the identity provider's messages come to. */
  sloUrl: string;
  credential: SamlCredential;
}

export async function samlServiceProvider(
  ctx: Pick<AppContext, 'db' | 'box' | 'baseUrl'>,
): Promise<SamlServiceProvider> {
  const baseUrl = ctx.baseUrl();
  return {
    entityId: `${baseUrl}${runtimePaths.samlEntityId}`,
    acsUrl: `${baseUrl}${runtimePaths.samlAcs}`,
    sloUrl: `${baseUrl}${runtimePaths.samlSlo}`,
    credential: await samlCredential(ctx),
  };
}

/**
 * The identity provider of an enabled Saml20 authentication connection, with the certificates it names (those
 * past their end of validity left out). Throws UpstreamError when it cannot be used.
 */
export async function samlIdentityProvider(
  ctx: Pick<AppContext, 'db'>,
  connectionId: string,
): Promise<SamlIdentityProvider> {
  const [row] = await ctx.db.select().from(connections).where(eq(connections.id, connectionId));
  if (row?.pluginType !== 'Saml20' || row.connectionType !== 'Authentication' || !row.enabled) {
    throw new UpstreamError('server_error', 'the connection is not an enabled Saml20 authentication connection');
  }
  const config = row.configuration;
  const sso = frontChannelService(config.singleSignOnServices);
  const slo = frontChannelService(config.singleLogoutServices);
  if (!sso) {
    throw new UpstreamError('server_error', 'the connection has no HTTP-Redirect or HTTP-POST single sign-on service');
  }
  const usable = await usableCertificates(ctx.db, row.certificates);
  if (usable.length === 0) throw new UpstreamError('server_error', 'the connection has no valid signing certificate');
  return {
    connectionId: row.id,
    name: row.name,
    entityId: String(config.entityId ?? row.entityId ?? ''),
    ssoUrl: sso.location,
    ssoBinding: sso.binding,
    ...(slo
      ? { sloUrl: slo.location, sloBinding: slo.binding, sloResponseUrl: slo.responseLocation ?? slo.location }
      : {}),
    certificates: usable,
    ...(typeof config.nameIdFormat === 'string' ? { nameIdFormat: config.nameIdFormat } : {}),
    wantAssertionsSigned: config.wantAssertionsSigned !== false,
    signAuthenticationRequests: config.signAuthenticationRequests === true,
  };
}

/** The AuthnRequest this service sent, as the sealed RelayState carries it back. */
export interface SentRequest {
  id: string;
  /** Milliseconds since the epoch. */
  issuedAt: number;
}

/**
 * A request id store for node-saml that holds nothing in memory: the one id it knows is the request of this
 * sign-in (or logout), which is kept sealed under the RelayState (several instances may serve one sign-in).
 */
function sealedRequestCache(sent: SentRequest): CacheProvider {
  return {
    saveAsync: async (_key, value) => ({ value, createdAt: Date.now() }),
    getAsync: async (key) => (key === sent.id ? new Date(sent.issuedAt).toISOString() : null),
    removeAsync: async () => null,
  };
}

/** What the AuthnRequest asks of the identity provider beyond the defaults. */
export interface SamlRequestOptions {
  passive?: boolean;
  forceAuthn?: boolean;
  /** Authentication context classes asked for (the client's acr_values), any of them (comparison exact). */
  authnContext?: readonly string[];
}

/**
 * What every node-saml client of this service has: this service as the issuer, audience and assertion consumer, the
 * provider's sign-on address and certificates, the clock allowance, and this service's key for encrypted content.
 */
export function samlBaseConfig(idp: SamlIdentityProvider, sp: SamlServiceProvider): SamlConfig {
  return {
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    audience: sp.entityId,
    entryPoint: idp.ssoUrl,
    idpCert: idp.certificates,
    acceptedClockSkewMs: runtimeDefaults.clockSkew * 1000,
    // An EncryptedAssertion (or EncryptedID) is decrypted with this service's key; its signature is checked as usual.
    decryptionPvk: sp.credential.privateKeyPem,
  };
}

/** node-saml settings for one message sent and its answer: its id, and InResponseTo always checked against it. */
export function answeringConfig(sent: SentRequest): Partial<SamlConfig> {
  return {
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: runtimeDefaults.interactionLifetime * 1000,
    cacheProvider: sealedRequestCache(sent),
    generateUniqueId: () => sent.id,
  };
}

/** A node-saml client for one identity provider and one sign-in: the AuthnRequest it sends or the one answered. */
export function samlClient(
  idp: SamlIdentityProvider,
  sp: SamlServiceProvider,
  sent: SentRequest,
  options: SamlRequestOptions = {},
): SAML {
  return new SAML({
    ...samlBaseConfig(idp, sp),
    ...answeringConfig(sent),
    identifierFormat: idp.nameIdFormat ?? null,
    wantAssertionsSigned: idp.wantAssertionsSigned,
    // The whole response or its assertion must be signed (node-saml refuses a response with neither signature).
    wantAuthnResponseSigned: false,
    passive: options.passive ?? false,
    forceAuthn: options.forceAuthn ?? false,
    // RequestedAuthnContext only when the client asked for classes (acr_values); else the identity provider signs
    // the person in as it sees fit.
    ...(options.authnContext?.length
      ? { authnContext: [...options.authnContext], racComparison: 'exact' as const }
      : { disableRequestedAuthnContext: true }),
    // A signed HTTP-Redirect request carries SigAlg and Signature (SAML bindings §3.4.4.1); a signed HTTP-POST one an
    // enveloped XML signature (RSA-SHA256, SHA-256 digest) with this service's certificate as its KeyInfo (§3.5.4).
    ...(idp.signAuthenticationRequests
      ? {
          privateKey: sp.credential.privateKeyPem,
          signatureAlgorithm: 'sha256' as const,
          digestAlgorithm: 'sha256',
          publicCert: sp.credential.certificatePem,
        }
      : {}),
    // By HTTP-POST the AuthnRequest is sent as base64 of its XML, not deflated (SAML bindings §3.5.4).
    ...(idp.ssoBinding === HTTP_POST_BINDING ? { skipRequestCompression: true, authnRequestBinding: 'HTTP-POST' } : {}),
  });
}
