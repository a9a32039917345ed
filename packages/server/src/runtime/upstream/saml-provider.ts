import { type CacheProvider, SAML, type SamlConfig, ValidateInResponseTo } from '@node-saml/node-saml';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { connections } from '../../db/schema/index.js';
import { runtimeDefaults, runtimePaths } from '../defaults.js';
import { usableCertificates } from './connection-certificates.js';
import { UpstreamError } from './provider.js';
import { type SamlCredential, samlCredential } from './saml-credential.js';

export const HTTP_REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** An upstream SAML 2.0 identity provider (a Saml20 authentication connection), ready to use. */
export interface SamlIdentityProvider {
  connectionId: string;
  name: string;
  /** The identity provider's entity id: the Issuer its assertions must carry. */
  entityId: string;
  /** Its single sign-on service of the HTTP-Redirect binding. */
  ssoUrl: string;
  /** Its single logout service of the HTTP-Redirect binding, if it has one. */
  sloUrl?: string;
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
  /** The single logout service (HTTP-Redirect) the identity provider's LogoutResponse comes back to. */
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

/** The first endpoint of the HTTP-Redirect binding of a list of SAML endpoints. */
function redirectService(services: unknown): { location: string; responseLocation?: string } | undefined {
  type Endpoint = { binding?: unknown; location?: unknown; responseLocation?: unknown };
  const list = Array.isArray(services) ? (services as Endpoint[]) : [];
  const found = list.find((s) => s.binding === HTTP_REDIRECT_BINDING && typeof s.location === 'string');
  if (!found) return undefined;
  const { responseLocation } = found;
  return { location: String(found.location), ...(typeof responseLocation === 'string' ? { responseLocation } : {}) };
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
  const sso = redirectService(config.singleSignOnServices);
  const slo = redirectService(config.singleLogoutServices);
  if (!sso) throw new UpstreamError('server_error', 'the connection has no HTTP-Redirect single sign-on service');
  const usable = await usableCertificates(ctx.db, row.certificates);
  if (usable.length === 0) throw new UpstreamError('server_error', 'the connection has no valid signing certificate');
  return {
    connectionId: row.id,
    name: row.name,
    entityId: String(config.entityId ?? row.entityId ?? ''),
    ssoUrl: String(sso.location),
    ...(slo ? { sloUrl: slo.location, sloResponseUrl: slo.responseLocation ?? slo.location } : {}),
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
    // A signed HTTP-Redirect request carries SigAlg and Signature (SAML bindings §3.4.4.1).
    ...(idp.signAuthenticationRequests
      ? { privateKey: sp.credential.privateKeyPem, signatureAlgorithm: 'sha256' as const }
      : {}),
  });
}
