import type { AppContext } from '../../context.js';
import { UpstreamError } from './provider.js';
import { checkLogoutResponse, type LogoutResponseXml } from './saml-logout.js';
import {
  checkLogoutRequest,
  type IdpLogoutRequest,
  LogoutRequestRefused,
  type LogoutRequestXml,
} from './saml-logout-request.js';
import { readPostMessage, signedFields, verifyPostSignature } from './saml-post-message.js';
import type { SamlIdentityProvider, SamlServiceProvider, SentRequest } from './saml-provider.js';
import { SIGNATURE_ALGORITHMS, textOf } from './saml-xml.js';

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Verifies an identity provider's LogoutRequest posted by HTTP-POST (SAML 2.0 Bindings §3.5.4): readable (no field
 * more than once, no DTD, a LogoutRequest), then as an HTTP-Redirect one (`checkLogoutRequest`), its signature an
 * enveloped XML signature of the LogoutRequest itself by one of the connection's certificates (`verifyPostSignature`,
 * then node-saml's own check of the posted request). `answeredInPlace`: the answer goes back in the same exchange (the
 * SOAP binding), so the connection needs no front-channel logout service. Throws LogoutRequestRefused.
 */
export async function readPostLogoutRequest(
  ctx: Pick<AppContext, 'db'>,
  sp: SamlServiceProvider,
  form: URLSearchParams,
  preferredConnection: string | undefined,
  answeredInPlace = false,
): Promise<{ idp: SamlIdentityProvider; request: IdpLogoutRequest }> {
  const read = readPostMessage<LogoutRequestXml>(form, 'SAMLRequest', 'LogoutRequest');
  if (typeof read === 'string') throw new LogoutRequestRefused(read, '');
  const posted = { SAMLRequest: form.get('SAMLRequest') ?? '' };
  return checkLogoutRequest(
    ctx,
    sp,
    {
      xml: read.xml,
      sigAlg: read.sigAlg,
      relayState: read.relayState,
      verify: async (idp, verifier) => {
        const signed = verifyPostSignature(read, idp.certificates);
        const { profile } = await verifier.validatePostRequestAsync(posted);
        return { profile, xml: signedFields<LogoutRequestXml>(signed, 'LogoutRequest') };
      },
    },
    preferredConnection,
    answeredInPlace,
  );
}

/**
 * Verifies the identity provider's LogoutResponse to this service's LogoutRequest, posted by HTTP-POST: readable (no
 * field more than once, no DTD, a LogoutResponse); signed (RSA with SHA-256 or stronger) with an enveloped XML
 * signature of the LogoutResponse itself by one of the connection's certificates; and, as the signature covers it,
 * answering the request sent, addressed to this service if it names an address, reporting success and issued by the
 * provider. Throws UpstreamError when it does not.
 */
export function readPostLogoutResponse(
  idp: SamlIdentityProvider,
  sp: SamlServiceProvider,
  sent: SentRequest,
  form: URLSearchParams,
): void {
  const invalid = (description: string) => new UpstreamError('invalid_response', description);
  const read = readPostMessage<LogoutResponseXml>(form, 'SAMLResponse', 'LogoutResponse');
  if (typeof read === 'string') throw invalid(read);
  if (!read.sigAlg) throw invalid('the LogoutResponse is not signed');
  if (!SIGNATURE_ALGORITHMS.includes(read.sigAlg)) throw invalid(`the LogoutResponse is signed with ${read.sigAlg}`);
  let signed: LogoutResponseXml;
  try {
    signed = signedFields<LogoutResponseXml>(verifyPostSignature(read, idp.certificates), 'LogoutResponse');
  } catch (error) {
    throw invalid(`the LogoutResponse does not verify: ${reason(error)}`);
  }
  checkLogoutResponse(signed, sp, sent);
  const issuer = textOf(signed.Issuer);
  if (issuer !== idp.entityId) {
    throw invalid(`the LogoutResponse is issued by ${issuer ?? 'no one'}, not by ${idp.entityId}`);
  }
}
