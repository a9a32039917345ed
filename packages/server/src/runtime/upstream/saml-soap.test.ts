import { describe, expect, it } from 'vitest';
import { SoapFault, soapBodyMessage, soapEnvelope, soapFaultEnvelope } from './saml-soap.js';

const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const request = `<samlp:LogoutRequest xmlns:samlp="${PROTOCOL}" ID="_r1" Version="2.0"><saml:Issuer xmlns:saml="${ASSERTION}">urn:idp</saml:Issuer></samlp:LogoutRequest>`;
const envelope = (body: string, header = '', ns = SOAP) =>
  `<S:Envelope xmlns:S="${ns}">${header}<S:Body>${body}</S:Body></S:Envelope>`;

function fault(xml: string): [string, string] {
  try {
    soapBodyMessage(xml, 'LogoutRequest');
  } catch (error) {
    if (error instanceof SoapFault) return [error.code, error.message];
    throw error;
  }
  throw new Error('no fault');
}

describe('the SAML message of a SOAP 1.1 envelope', () => {
  it('is the one element of the Body, with the namespaces it uses declared on it', () => {
    expect(soapBodyMessage(envelope(request), 'LogoutRequest')).toBe(request);
    const declaredAbove = `<S:Envelope xmlns:S="${SOAP}" xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}"><S:Header><x:Trace xmlns:x="urn:x"/></S:Header><S:Body>\n<samlp:LogoutRequest ID="_r2"><saml:Issuer>urn:idp</saml:Issuer></samlp:LogoutRequest>\n</S:Body></S:Envelope>`;
    expect(soapBodyMessage(declaredAbove, 'LogoutRequest')).toBe(
      `<samlp:LogoutRequest ID="_r2" xmlns:samlp="${PROTOCOL}"><saml:Issuer xmlns:saml="${ASSERTION}">urn:idp</saml:Issuer></samlp:LogoutRequest>`,
    );
  });

  it('is refused with the SOAP 1.1 fault code and a reason', () => {
    const cases: [string, [string, string]][] = [
      [
        `<!DOCTYPE x [<!ENTITY e "x">]>${envelope(request)}`,
        ['Client', 'the SOAP message cannot be read: the XML has a document type declaration'],
      ],
      ['<S:Envelope', ['Client', expect.stringMatching(/^the SOAP message cannot be read: /) as unknown as string]],
      [request, ['Client', 'the message is not a SOAP envelope']],
      [
        envelope(request, '', 'http://www.w3.org/2003/05/soap-envelope'),
        ['VersionMismatch', 'the envelope is not of SOAP 1.1'],
      ],
      [
        `<S:Envelope xmlns:S="${SOAP}"><S:Header/></S:Envelope>`,
        ['Client', 'the envelope holds other than an optional Header and a Body'],
      ],
      [
        `<S:Envelope xmlns:S="${SOAP}"><S:Body/><S:Body/></S:Envelope>`,
        ['Client', 'the envelope holds other than an optional Header and a Body'],
      ],
      [
        envelope(request, `<S:Header><x:Session xmlns:x="urn:x" S:mustUnderstand="1"/></S:Header>`),
        ['MustUnderstand', 'the header Session is not understood here'],
      ],
      [envelope(''), ['Client', 'the SOAP Body does not hold exactly one message']],
      [envelope(request + request), ['Client', 'the SOAP Body does not hold exactly one message']],
      [
        envelope(`<samlp:LogoutResponse xmlns:samlp="${PROTOCOL}"/>`),
        ['Client', 'the SOAP Body holds no LogoutRequest'],
      ],
      [envelope('<LogoutRequest/>'), ['Client', 'the SOAP Body holds no LogoutRequest']],
    ];
    for (const [xml, expected] of cases) expect(fault(xml)).toEqual(expected);
  });

  it('takes a header block that need not be understood', () => {
    const header = `<S:Header><x:Trace xmlns:x="urn:x" S:mustUnderstand="0"/></S:Header>`;
    expect(soapBodyMessage(envelope(request, header), 'LogoutRequest')).toBe(request);
  });
});

describe('the SOAP answers', () => {
  it('wrap the message in a SOAP 1.1 envelope, and a fault with its code and escaped reason', () => {
    expect(soapEnvelope('<m/>')).toBe(
      `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP}"><SOAP-ENV:Body><m/></SOAP-ENV:Body></SOAP-ENV:Envelope>`,
    );
    expect(soapFaultEnvelope('Client', 'a <b> & "c"')).toBe(
      soapEnvelope(
        '<SOAP-ENV:Fault><faultcode>SOAP-ENV:Client</faultcode><faultstring>a &lt;b&gt; &amp; &quot;c&quot;</faultstring></SOAP-ENV:Fault>',
      ),
    );
  });
});
