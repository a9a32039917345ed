import { XMLSerializer } from '@xmldom/xmldom';
import { elementsOf, parseUntrustedXml } from './wsfed-xml.js';

/** SAML 2.0 SOAP binding (SAML 2.0 Bindings §3.2): SOAP 1.1 envelopes over HTTP. */
export const SOAP_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:SOAP';
export const SOAP11_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';

/** The fault codes of SOAP 1.1 (§4.4.1) a fault of this service names. */
export type SoapFaultCode = 'VersionMismatch' | 'MustUnderstand' | 'Client' | 'Server';

/** A SOAP request that cannot be taken: answered with a SOAP fault of the code, the message as its faultstring. */
export class SoapFault extends Error {
  constructor(
    readonly code: SoapFaultCode,
    message: string,
  ) {
    super(message);
    this.name = 'SoapFault';
  }
}

const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The SAML protocol message `root` a SOAP 1.1 envelope carries (§3.2.3.1), as XML of its own (the namespaces it
 * uses declared on it), not yet verified. The envelope: no document type declaration; a SOAP 1.1 Envelope (another
 * namespace: VersionMismatch); an optional Header with no block that must be understood (MustUnderstand), then a
 * Body and nothing else; the Body holding exactly one element, the message. Throws SoapFault (Client unless told).
 */
export function soapBodyMessage(xml: string, root: string): string {
  let doc: Document;
  try {
    doc = parseUntrustedXml(xml);
  } catch (error) {
    throw new SoapFault('Client', `the SOAP message cannot be read: ${(error as Error).message}`);
  }
  const envelope = doc.documentElement;
  if (envelope.localName !== 'Envelope') throw new SoapFault('Client', 'the message is not a SOAP envelope');
  if (envelope.namespaceURI !== SOAP11_ENVELOPE) {
    throw new SoapFault('VersionMismatch', 'the envelope is not of SOAP 1.1');
  }
  const parts = elementsOf(envelope);
  const named = (element: Element | undefined, name: string) =>
    element?.namespaceURI === SOAP11_ENVELOPE && element.localName === name;
  const header = named(parts[0], 'Header') ? parts.shift() : undefined;
  if (parts.length !== 1 || !named(parts[0], 'Body')) {
    throw new SoapFault('Client', 'the envelope holds other than an optional Header and a Body');
  }
  for (const block of header ? elementsOf(header) : []) {
    if (block.getAttributeNS(SOAP11_ENVELOPE, 'mustUnderstand') === '1') {
      throw new SoapFault('MustUnderstand', `the header ${block.localName} is not understood here`);
    }
  }
  const messages = elementsOf(parts[0]);
  if (messages.length !== 1) throw new SoapFault('Client', 'the SOAP Body does not hold exactly one message');
  const [message] = messages;
  if (message.namespaceURI !== PROTOCOL || message.localName !== root) {
    throw new SoapFault('Client', `the SOAP Body holds no ${root}`);
  }
  return new XMLSerializer().serializeToString(message);
}

/** A SOAP 1.1 envelope whose Body holds the XML (a SAML protocol message, or a fault). */
export function soapEnvelope(body: string): string {
  return `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP11_ENVELOPE}"><SOAP-ENV:Body>${body}</SOAP-ENV:Body></SOAP-ENV:Envelope>`;
}

/** A SOAP 1.1 fault (§4.4) in its envelope: the code, and the reason as faultstring. */
export function soapFaultEnvelope(code: SoapFaultCode, reason: string): string {
  return soapEnvelope(
    `<SOAP-ENV:Fault><faultcode>SOAP-ENV:${code}</faultcode><faultstring>${xmlText(reason)}</faultstring></SOAP-ENV:Fault>`,
  );
}
