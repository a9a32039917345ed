import { SAML } from '@node-saml/node-saml';
import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { connections } from '../../db/schema/index.js';
import { UpstreamError } from './provider.js';
import {
  type SamlIdentityProvider,
  type SamlServiceProvider,
  samlBaseConfig,
  samlIdentityProvider,
} from './saml-provider.js';
import { readRedirectMessage } from './saml-redirect-message.js';
import { SIGNATURE_ALGORITHMS, textOf } from './saml-xml.js';
import type { UpstreamSignIn } from './upstream-session.js';

const UNSPECIFIED_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';

/** A LogoutRequest of an identity provider, verified: whom it signs out. */
export interface IdpLogoutRequest {
  id: string;
  nameId: string;
  nameIdFormat?: string;
  /** The SessionIndex values it names; none: every session of the NameID. */
  sessionIndexes: string[];
  /** The RelayState that came with it, to be passed back (absent, or longer than 80 bytes: not passed back). */
  relayState?: string;
}

/** A LogoutRequest that does not verify; `connection` names the connection, or the issuer when none was found. */
export class LogoutRequestRefused extends UpstreamError {
  constructor(
    description: string,
    readonly connection: string,
  ) {
    super('invalid_request', description);
    this.name = 'LogoutRequestRefused';
  }
}

export interface LogoutRequestXml {
  '@ID'?: unknown;
  '@Destination'?: unknown;
  Issuer?: unknown;
  SessionIndex?: unknown;
}

/** A LogoutRequest as its binding received it, not yet trusted. */
export interface ReceivedLogoutRequest {
  /** Its plain fields, as received. */
  xml: LogoutRequestXml;
  /** The algorithm it is signed with (SigAlg, or its XML signature's SignatureMethod); none: not signed. */
  sigAlg?: string | undefined;
  relayState?: string | undefined;
  /**
   * Verifies it with node-saml's client for its provider (the signature by one of the connection's certificates, the
   * Issuer, NotBefore/NotOnOrAfter, a NameID): the profile, and the plain fields as the signature covers them.
   * Throws Error.
   */
  verify(
    idp: SamlIdentityProvider,
    verifier: SAML,
  ): Promise<{ profile: VerifiedProfile | null; xml: LogoutRequestXml }>;
}

type VerifiedProfile = { nameID?: unknown; nameIDFormat?: unknown };

/**
 * The enabled Saml20 authentication connection of the issuer's entity id. Should several share it, the one the
 * browser's session was signed in through is taken, else the first.
 */
async function issuerConnection(ctx: Pick<AppContext, 'db'>, issuer: string, preferred: string | undefined) {
  const rows = await ctx.db
    .select({ id: connections.id })
    .from(connections)
    .where(
      and(
        eq(connections.entityId, issuer),
        eq(connections.pluginType, 'Saml20'),
        eq(connections.connectionType, 'Authentication'),
        eq(connections.enabled, true),
      ),
    )
    .orderBy(asc(connections.id));
  return (rows.find((row) => row.id === preferred) ?? rows[0])?.id;
}

/** A node-saml client that verifies an identity provider's LogoutRequest (issuer, times, redirect signature). */
function requestVerifier(idp: SamlIdentityProvider, sp: SamlServiceProvider): SAML {
  return new SAML({ ...samlBaseConfig(idp, sp), idpIssuer: idp.entityId });
}

/**
 * Verifies an identity provider's HTTP-Redirect LogoutRequest (SAML 2.0 Bindings §3.4.4.1): no parameter more than
 * once, then as `checkLogoutRequest`, the signature over the parameters as received. Throws LogoutRequestRefused.
 */
export async function readLogoutRequest(
  ctx: Pick<AppContext, 'db'>,
  sp: SamlServiceProvider,
  rawQuery: string,
  preferredConnection: string | undefined,
): Promise<{ idp: SamlIdentityProvider; request: IdpLogoutRequest }> {
  const read = readRedirectMessage<LogoutRequestXml>(rawQuery, 'SAMLRequest', 'LogoutRequest');
  if (typeof read === 'string') throw new LogoutRequestRefused(read, '');
  const { xml, container, signedQuery, relayState, sigAlg, signature } = read;
  const received: ReceivedLogoutRequest = {
    xml,
    sigAlg: sigAlg && signature ? sigAlg : undefined,
    relayState,
    verify: async (_idp, verifier) => ({
      profile: (await verifier.validateRedirectAsync(container, signedQuery)).profile,
      xml,
    }),
  };
  return checkLogoutRequest(ctx, sp, received, preferredConnection);
}

/**
 * Verifies an identity provider's LogoutRequest (SAML 2.0 Profiles §4.4), whatever its binding: its Issuer an enabled
 * Saml20 authentication connection; signed (RSA with SHA-256 or stronger, required); an ID; addressed to this
 * service's single logout service if it names an address; and verified by node-saml (the signature by one of the
 * connection's certificates, the Issuer, NotBefore/NotOnOrAfter within the clock skew, a NameID). The connection must
 * have a single logout service to answer at, unless the answer goes back in the same exchange (`answeredInPlace`:
 * the SOAP binding). Throws LogoutRequestRefused when any of it fails.
 */
export async function checkLogoutRequest(
  ctx: Pick<AppContext, 'db'>,
  sp: SamlServiceProvider,
  received: ReceivedLogoutRequest,
  preferredConnection: string | undefined,
  answeredInPlace = false,
): Promise<{ idp: SamlIdentityProvider; request: IdpLogoutRequest }> {
  let connection = '';
  const refused = (description: string) => new LogoutRequestRefused(description, connection);
  const { xml, sigAlg, relayState } = received;
  const issuer = textOf(xml.Issuer) ?? '';
  connection = issuer;
  const connectionId = issuer ? await issuerConnection(ctx, issuer, preferredConnection) : undefined;
  if (!connectionId) throw refused(`the LogoutRequest is issued by ${issuer || 'no one'}, not by a known provider`);
  let idp: SamlIdentityProvider;
  try {
    idp = await samlIdentityProvider(ctx, connectionId);
  } catch (error) {
    if (error instanceof UpstreamError) throw refused(error.description);
    throw error;
  }
  connection = idp.name;
  if (!sigAlg) throw refused('the LogoutRequest is not signed');
  if (!SIGNATURE_ALGORITHMS.includes(sigAlg)) throw refused(`the LogoutRequest is signed with ${sigAlg}`);
  const addressed = (fields: LogoutRequestXml) => {
    const id = typeof fields['@ID'] === 'string' ? fields['@ID'] : '';
    if (!id) throw refused('the LogoutRequest has no ID');
    const destination = fields['@Destination'];
    if (destination !== undefined && destination !== sp.sloUrl) {
      throw refused(`the LogoutRequest is addressed to ${String(destination)}, not to this service`);
    }
    return id;
  };
  addressed(xml);
  let verified: Awaited<ReturnType<ReceivedLogoutRequest['verify']>>;
  try {
    verified = await received.verify(idp, requestVerifier(idp, sp));
  } catch (error) {
    throw refused(`the LogoutRequest does not verify: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { profile, xml: signed } = verified;
  // What the signature covers is what counts (the same fields, unless the message was tampered with around them).
  const id = addressed(signed);
  if (typeof profile?.nameID !== 'string' || profile.nameID === '') throw refused('the LogoutRequest names no NameID');
  // A front-channel answer is sent to the provider's single logout service: without one it cannot be answered.
  if (!answeredInPlace && !idp.sloResponseUrl)
    throw refused('the connection has no single logout service to answer at');
  const indexes = Array.isArray(signed.SessionIndex) ? signed.SessionIndex : [signed.SessionIndex];
  const request: IdpLogoutRequest = {
    id,
    nameId: profile.nameID,
    ...(typeof profile.nameIDFormat === 'string' ? { nameIdFormat: profile.nameIDFormat } : {}),
    sessionIndexes: indexes.flatMap((index) => textOf(index) ?? []),
    // RelayState may hold 80 bytes at most (SAML 2.0 Bindings §3.4.3): a longer one is not passed back.
    ...(relayState && Buffer.byteLength(relayState) <= 80 ? { relayState } : {}),
  };
  return { idp, request };
}

/**
 * Whether the LogoutRequest signs out the session's upstream sign-in: signed in through the connection, with the
 * same NameID (and format, when both name one other than unspecified) and, when the request names SessionIndex
 * values, with one of them.
 */
export function requestNamesSignIn(
  idp: SamlIdentityProvider,
  request: IdpLogoutRequest,
  signIn: UpstreamSignIn | undefined,
): boolean {
  if (signIn?.protocol !== 'saml' || signIn.connectionId !== idp.connectionId) return false;
  if (signIn.nameId !== request.nameId) return false;
  const formats = [request.nameIdFormat, signIn.nameIdFormat].filter((f) => f && f !== UNSPECIFIED_NAME_ID);
  if (formats.length === 2 && formats[0] !== formats[1]) return false;
  if (request.sessionIndexes.length === 0) return true;
  return signIn.sessionIndex !== undefined && request.sessionIndexes.includes(signIn.sessionIndex);
}
