import { createSign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { type FrontchannelLogout, frontchannelFrames, sendSigningOutPage } from '../frontchannel-logout.js';
import { HTTP_POST_BINDING } from './saml-binding.js';
import type { IdpLogoutRequest } from './saml-logout-request.js';
import { logoutResponseXml } from './saml-logout-xml.js';
import { keepPostForm, type SamlPostForm, sendSamlPostForm } from './saml-post-form.js';
import { signEnveloped } from './saml-post-message.js';
import type { SamlIdentityProvider, SamlServiceProvider } from './saml-provider.js';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

type Answered = Pick<SamlIdentityProvider, 'sloResponseUrl'>;
type Answering = Pick<SamlServiceProvider, 'entityId' | 'credential'>;

function answerXml(idp: Answered, sp: Answering, request: Pick<IdpLogoutRequest, 'id'>): [string, string] {
  if (!idp.sloResponseUrl) throw new Error('the identity provider has no single logout service');
  const destination = idp.sloResponseUrl;
  return [destination, logoutResponseXml({ destination, issuer: sp.entityId, inResponseTo: request.id })];
}

/**
 * The address of this service's LogoutResponse (status Success) to an identity provider's LogoutRequest, over
 * HTTP-Redirect (SAML 2.0 Bindings §3.4.4.1): to the provider's single logout service, answering the request's ID,
 * issued by this service, signed with its credential (RSA-SHA256) over `SAMLResponse=…&RelayState=…&SigAlg=…` exactly
 * as encoded in the address, the request's RelayState passed back. Built here rather than by node-saml, which signs
 * one encoding of the RelayState and sends another.
 */
export function logoutResponseUrl(
  idp: Answered,
  sp: Answering,
  request: Pick<IdpLogoutRequest, 'id' | 'relayState'>,
): string {
  const [destination, xml] = answerXml(idp, sp, request);
  const parameters = [
    `SAMLResponse=${encodeURIComponent(deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'))}`,
    ...(request.relayState ? [`RelayState=${encodeURIComponent(request.relayState)}`] : []),
    `SigAlg=${encodeURIComponent(RSA_SHA256)}`,
  ].join('&');
  const signature = createSign('RSA-SHA256').update(parameters).sign(sp.credential.privateKeyPem, 'base64');
  // The parameters join any query the address already has; a fragment is dropped.
  const target = new URL(destination);
  const query = target.search.length > 1 ? `${target.search}&` : '?';
  return `${target.origin}${target.pathname}${query}${parameters}&Signature=${encodeURIComponent(signature)}`;
}

/**
 * The same LogoutResponse for the HTTP-POST binding (SAML 2.0 Bindings §3.5): the form that posts it, base64 and
 * signed with an enveloped XML signature, with the request's RelayState.
 */
export function logoutResponseForm(
  idp: Answered,
  sp: Answering,
  request: Pick<IdpLogoutRequest, 'id' | 'relayState'>,
): SamlPostForm {
  const [destination, xml] = answerXml(idp, sp, request);
  const signed = signEnveloped(xml, 'LogoutResponse', sp.credential);
  const fields: Record<string, string> = { SAMLResponse: Buffer.from(signed, 'utf8').toString('base64') };
  if (request.relayState) fields.RelayState = request.relayState;
  return { action: destination, fields };
}

/**
 * Sends the LogoutResponse to the identity provider by the binding of its single logout service: a redirect
 * (HTTP-Redirect), or a page whose form posts it (HTTP-POST, the service has no HTTP-Redirect endpoint). When the
 * request ended a session here whose clients take front-channel logout (`frontchannel`), the browser loads their
 * addresses first, on the signing-out page, which goes on to the redirect, or to the address here of the kept form
 * that posts the response.
 */
export async function answerLogoutRequest(
  ctx: AppContext,
  c: Context,
  idp: Answered & Pick<SamlIdentityProvider, 'sloBinding'>,
  sp: Answering,
  request: Pick<IdpLogoutRequest, 'id' | 'relayState'>,
  frontchannel?: FrontchannelLogout,
): Promise<Response> {
  const frames = await frontchannelFrames(ctx, frontchannel);
  const post = idp.sloBinding === HTTP_POST_BINDING;
  if (frames.length > 0) {
    const next = post
      ? await keepPostForm(ctx, logoutResponseForm(idp, sp, request))
      : logoutResponseUrl(idp, sp, request);
    return sendSigningOutPage(ctx, c, { frames, next });
  }
  if (post) return sendSamlPostForm(ctx, c, logoutResponseForm(idp, sp, request));
  c.header('Cache-Control', 'no-store');
  return c.redirect(logoutResponseUrl(idp, sp, request), 302);
}
