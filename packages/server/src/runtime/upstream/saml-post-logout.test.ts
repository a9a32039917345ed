import { beforeAll, describe, expect, it } from 'vitest';
import { makeSamlSigner, type SamlSigner, signPostMessage } from '../../test-support/saml-identity-provider.js';
import { HTTP_POST_BINDING } from './saml-binding.js';
import { makeCredential } from './saml-credential.js';
import { readPostLogoutResponse } from './saml-post-logout.js';
import type { SamlIdentityProvider, SamlServiceProvider } from './saml-provider.js';

const sent = { id: '_q1', issuedAt: Date.now() };
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
let signer: SamlSigner;
let idp: SamlIdentityProvider;
let sp: SamlServiceProvider;

beforeAll(async () => {
  signer = await makeSamlSigner();
  idp = {
    connectionId: 'c1',
    name: 'Idp',
    entityId: 'urn:idp',
    ssoUrl: 'https://idp.example/sso',
    ssoBinding: HTTP_POST_BINDING,
    sloUrl: 'https://idp.example/slo',
    sloBinding: HTTP_POST_BINDING,
    sloResponseUrl: 'https://idp.example/slo',
    certificates: [signer.pem],
    wantAssertionsSigned: true,
    signAuthenticationRequests: false,
  };
  sp = {
    entityId: 'https://sp.example/runtime/saml2',
    acsUrl: 'https://sp.example/runtime/saml2/acs.idp',
    sloUrl: 'https://sp.example/runtime/saml2/slo.idp',
    credential: await makeCredential('sp.example'),
  };
});

/** The provider's LogoutResponse as posted: signed unless told otherwise. */
function posted(input: { issuer?: string; inResponseTo?: string; destination?: string; status?: string } = {}) {
  const destination = input.destination === undefined ? '' : ` Destination="${input.destination}"`;
  const xml = [
    '<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"',
    ' xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r1" Version="2.0"',
    ` IssueInstant="${new Date().toISOString()}" InResponseTo="${input.inResponseTo ?? sent.id}"${destination}>`,
    `<saml:Issuer>${input.issuer ?? 'urn:idp'}</saml:Issuer>`,
    `<samlp:Status><samlp:StatusCode Value="${input.status ?? SUCCESS}"/></samlp:Status>`,
    '</samlp:LogoutResponse>',
  ].join('');
  const signed = signPostMessage(xml, 'LogoutResponse', { signer });
  return new URLSearchParams({ SAMLResponse: Buffer.from(signed).toString('base64'), RelayState: 'r1' });
}

describe('readPostLogoutResponse', () => {
  it('accepts the signed Success answer to the request sent, issued by the provider, addressed here or nowhere', () => {
    expect(() => readPostLogoutResponse(idp, sp, sent, posted())).not.toThrow();
    expect(() => readPostLogoutResponse(idp, sp, sent, posted({ destination: sp.sloUrl }))).not.toThrow();
  });

  it('refuses an answer to another request, addressed elsewhere, reporting a failure or issued by another', () => {
    const refusal = (form: URLSearchParams) => {
      try {
        readPostLogoutResponse(idp, sp, sent, form);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      return 'accepted';
    };
    expect(refusal(posted({ inResponseTo: '_q2' }))).toBe('the LogoutResponse does not answer the request _q1');
    expect(refusal(posted({ destination: 'https://elsewhere.example/slo' }))).toBe(
      'the LogoutResponse is addressed to https://elsewhere.example/slo, not to this service',
    );
    expect(refusal(posted({ status: 'urn:oasis:names:tc:SAML:2.0:status:Requester' }))).toBe(
      'the LogoutResponse reports the status urn:oasis:names:tc:SAML:2.0:status:Requester',
    );
    expect(refusal(posted({ issuer: 'urn:other' }))).toBe('the LogoutResponse is issued by urn:other, not by urn:idp');
    expect(refusal(new URLSearchParams({ RelayState: 'r1' }))).toBe('the message holds no SAMLResponse');
  });
});
