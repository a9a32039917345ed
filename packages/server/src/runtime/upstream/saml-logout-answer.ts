import { createSign, randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { IdpLogoutRequest } from './saml-logout-request.js';
import type { SamlIdentityProvider, SamlServiceProvider } from './saml-provider.js';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

const xmlAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The address of this service's LogoutResponse (status Success) to an identity provider's LogoutRequest, over
 * HTTP-Redirect (SAML 2.0 Bindings §3.4.4.1): to the provider's single logout service, answering the request's ID,
 * issued by this service, signed with its credential (RSA-SHA256) over `SAMLResponse=…&RelayState=…&SigAlg=…` exactly
 * as encoded in the address, the request's RelayState passed back. Built here rather than by node-saml, which signs
 * one encoding of the RelayState and sends another.
 */
export function logoutResponseUrl(
  idp: Pick<SamlIdentityProvider, 'sloResponseUrl'>,
  sp: Pick<SamlServiceProvider, 'entityId' | 'credential'>,
  request: Pick<IdpLogoutRequest, 'id' | 'relayState'>,
): string {
  if (!idp.sloResponseUrl) throw new Error('the identity provider has no single logout service');
  const destination = idp.sloResponseUrl;
  const xml = [
    `<samlp:LogoutResponse xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}"`,
    ` ID="_${randomBytes(20).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}"`,
    ` Destination="${xmlAttribute(destination)}" InResponseTo="${xmlAttribute(request.id)}">`,
    `<saml:Issuer>${xmlAttribute(sp.entityId)}</saml:Issuer>`,
    `<samlp:Status><samlp:StatusCode Value="${SUCCESS}"/></samlp:Status>`,
    '</samlp:LogoutResponse>',
  ].join('');
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
