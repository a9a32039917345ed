import { randomBytes } from 'node:crypto';
import { type Profile, SAML } from '@node-saml/node-saml';
import type { AppContext } from '../../context.js';
import { keepRelayState } from '../../queries/saml-relay-states.js';
import { type LogoutContinuation, sealContinuation } from './logout-continuation.js';
import { UpstreamError } from './provider.js';
import { HTTP_POST_BINDING } from './saml-binding.js';
import { logoutRequestXml } from './saml-logout-xml.js';
import { keepPostForm } from './saml-post-form.js';
import { signEnveloped } from './saml-post-message.js';
import {
  answeringConfig,
  type SamlIdentityProvider,
  type SamlServiceProvider,
  type SentRequest,
  samlBaseConfig,
  samlIdentityProvider,
  samlServiceProvider,
} from './saml-provider.js';
import { readRedirectMessage } from './saml-redirect-message.js';
import type { UpstreamSignIn } from './upstream-session.js';

const UNSPECIFIED_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

/**
 * A node-saml client for logout at one identity provider: the LogoutRequest it sends to the provider's single logout
 * service (HTTP-Redirect), always signed with this service's credential, and the LogoutResponse that must answer it.
 */
function logoutClient(idp: SamlIdentityProvider, sp: SamlServiceProvider, sent: SentRequest): SAML {
  return new SAML({
    ...samlBaseConfig(idp, sp),
    ...answeringConfig(sent),
    logoutUrl: idp.sloUrl ?? idp.ssoUrl,
    idpIssuer: idp.entityId,
    privateKey: sp.credential.privateKeyPem,
    signatureAlgorithm: 'sha256',
  });
}

/**
 * The LogoutRequest for the person's session at the identity provider (its NameID with its format, its
 * SessionIndex), signed, to the provider's single logout service: its address with the request (HTTP-Redirect), or,
 * when the service takes HTTP-POST only, the address here of the page that posts it (signed with an enveloped XML
 * signature). The continuation is kept sealed under a short RelayState with the request's ID, which the
 * LogoutResponse must answer. Undefined when the provider has no such service or the sign-in named no NameID (the
 * logout finishes here).
 */
export async function samlLogoutUrl(
  ctx: AppContext,
  signIn: UpstreamSignIn,
  continuation: LogoutContinuation,
): Promise<string | undefined> {
  const idp = await samlIdentityProvider(ctx, signIn.connectionId);
  if (!idp.sloUrl || !signIn.nameId) return undefined;
  // An NCName (SAML ID type): a letter or underscore first.
  const sent: SentRequest = { id: `_${randomBytes(20).toString('hex')}`, issuedAt: Date.now() };
  const kept: LogoutContinuation = { ...continuation, kind: 'saml-logout', request: sent };
  // RelayState may hold 80 bytes at most (SAML 2.0 Bindings §3.4.3): it names the logout, which is kept here.
  const relayState = randomBytes(18).toString('base64url');
  await keepRelayState(ctx.db, relayState, sealContinuation(ctx.box, kept), new Date(kept.expiresAt));
  const person = {
    issuer: idp.entityId,
    nameID: signIn.nameId,
    nameIDFormat: signIn.nameIdFormat ?? UNSPECIFIED_NAME_ID,
    ...(signIn.sessionIndex ? { sessionIndex: signIn.sessionIndex } : {}),
  } satisfies Profile;
  const sp = await samlServiceProvider(ctx);
  if (idp.sloBinding === HTTP_POST_BINDING) {
    const xml = logoutRequestXml({
      id: sent.id,
      issueInstant: new Date(sent.issuedAt),
      destination: idp.sloUrl,
      issuer: sp.entityId,
      nameId: person.nameID,
      nameIdFormat: person.nameIDFormat,
      sessionIndex: person.sessionIndex,
    });
    const SAMLRequest = Buffer.from(signEnveloped(xml, 'LogoutRequest', sp.credential), 'utf8').toString('base64');
    return keepPostForm(ctx, { action: idp.sloUrl, fields: { SAMLRequest, RelayState: relayState } });
  }
  return logoutClient(idp, sp, sent).getLogoutUrlAsync(person, relayState, {});
}

export interface LogoutResponseXml {
  '@InResponseTo'?: unknown;
  '@Destination'?: unknown;
  Issuer?: unknown;
  Status?: { StatusCode?: { '@Value'?: unknown } };
}

/**
 * Checks the fields of a LogoutResponse: it answers the LogoutRequest sent (InResponseTo, always), is addressed to
 * this service's single logout service if it names an address, and reports success. Throws UpstreamError.
 */
export function checkLogoutResponse(xml: LogoutResponseXml, sp: SamlServiceProvider, sent: SentRequest): void {
  const invalid = (description: string) => new UpstreamError('invalid_response', description);
  if (xml['@InResponseTo'] !== sent.id) throw invalid(`the LogoutResponse does not answer the request ${sent.id}`);
  const destination = xml['@Destination'];
  if (destination !== undefined && destination !== sp.sloUrl) {
    throw invalid(`the LogoutResponse is addressed to ${String(destination)}, not to this service`);
  }
  const status = String(xml.Status?.StatusCode?.['@Value'] ?? '');
  if (status !== SUCCESS) throw invalid(`the LogoutResponse reports the status ${status || 'none'}`);
}

/**
 * Verifies an HTTP-Redirect LogoutResponse (SAML 2.0 Bindings §3.4.4.1): it must be signed (SigAlg and Signature),
 * answer the LogoutRequest sent (InResponseTo, always), be addressed to this service's single logout service if it
 * names an address, report success, and verify with node-saml (the signature by one of the connection's
 * certificates, over the parameters as received; the Issuer). Throws UpstreamError when it does not.
 */
export async function readLogoutResponse(
  idp: SamlIdentityProvider,
  sp: SamlServiceProvider,
  sent: SentRequest,
  rawQuery: string,
): Promise<void> {
  const invalid = (description: string) => new UpstreamError('invalid_response', description);
  const read = readRedirectMessage<LogoutResponseXml>(rawQuery, 'SAMLResponse', 'LogoutResponse');
  if (typeof read === 'string') throw invalid(read);
  const { xml, container, signedQuery } = read;
  if (!read.sigAlg || !read.signature) throw invalid('the LogoutResponse is not signed');
  // The status is read before the signature is checked (node-saml refuses any other status first): not trusted.
  checkLogoutResponse(xml, sp, sent);
  try {
    await logoutClient(idp, sp, sent).validateRedirectAsync(container, signedQuery);
  } catch (error) {
    throw invalid(`the LogoutResponse does not verify: ${error instanceof Error ? error.message : String(error)}`);
  }
}
