import { randomBytes } from 'node:crypto';

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What this service's LogoutRequest says: whom it signs out at the identity provider. */
export interface LogoutRequestInput {
  id: string;
  issueInstant: Date;
  /** The identity provider's single logout service. */
  destination: string;
  /** This service's entity id. */
  issuer: string;
  nameId: string;
  nameIdFormat: string;
  sessionIndex?: string | undefined;
}

/** This service's LogoutRequest (SAML 2.0 Core §3.7.1), unsigned: the same request as the HTTP-Redirect one. */
export function logoutRequestXml(input: LogoutRequestInput): string {
  return [
    `<samlp:LogoutRequest xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}"`,
    ` ID="${xmlText(input.id)}" Version="2.0" IssueInstant="${input.issueInstant.toISOString()}"`,
    ` Destination="${xmlText(input.destination)}">`,
    `<saml:Issuer>${xmlText(input.issuer)}</saml:Issuer>`,
    `<saml:NameID Format="${xmlText(input.nameIdFormat)}">${xmlText(input.nameId)}</saml:NameID>`,
    input.sessionIndex ? `<samlp:SessionIndex>${xmlText(input.sessionIndex)}</samlp:SessionIndex>` : '',
    '</samlp:LogoutRequest>',
  ].join('');
}

/**
 * This service's LogoutResponse (status Success) to an identity provider's LogoutRequest, unsigned: to the
 * provider's single logout service, answering the request's ID, issued by this service.
 */
export function logoutResponseXml(input: { destination: string; issuer: string; inResponseTo: string }): string {
  return [
    `<samlp:LogoutResponse xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}"`,
    ` ID="_${randomBytes(20).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}"`,
    ` Destination="${xmlText(input.destination)}" InResponseTo="${xmlText(input.inResponseTo)}">`,
    `<saml:Issuer>${xmlText(input.issuer)}</saml:Issuer>`,
    `<samlp:Status><samlp:StatusCode Value="${SUCCESS}"/></samlp:Status>`,
    '</samlp:LogoutResponse>',
  ].join('');
}
