// @peculiar/x509 needs the Reflect metadata polyfill loaded before it; this import runs first.
import 'reflect-metadata';
import { createHash, createSign, createVerify, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { signSamlPost } from '@node-saml/node-saml/lib/saml-post-signing.js';
import * as x509 from '@peculiar/x509';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import xmlenc from 'xml-encryption';
import { pemOf } from '../crypto/pem.js';

/** An RSA signing certificate of a test identity provider, with its private key. */
export interface SamlSigner {
  /** Base64 of the DER (the certificate upload form). */
  base64: string;
  pem: string;
  /** SHA-1 of the DER, upper-case hex. */
  thumbprint: string;
  privateKeyPem: string;
}

const algorithm = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
};
const day = 86_400_000;

/** A self-signed RSA certificate (XML signatures of SAML are RSA), valid from yesterday for a year. */
export async function makeSamlSigner(subject = `CN=idsvc test idp ${randomBytes(4).toString('hex')}`) {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: `01${randomBytes(8).toString('hex')}`,
    name: subject,
    notBefore: new Date(Date.now() - day),
    notAfter: new Date(Date.now() + 365 * day),
    keys,
    signingAlgorithm: algorithm,
  });
  const der = Buffer.from(cert.rawData);
  const signer: SamlSigner = {
    base64: der.toString('base64'),
    pem: cert.toString('pem'),
    thumbprint: createHash('sha1').update(der).digest('hex').toUpperCase(),
    privateKeyPem: pemOf('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
  };
  return signer;
}

/** What a test identity provider's response says. */
export interface SamlResponseInput {
  /** The identity provider's entity id. */
  issuer: string;
  /** The ACS address (Response Destination, SubjectConfirmationData Recipient). */
  destination: string;
  audience: string;
  inResponseTo: string;
  nameId: string;
  nameIdFormat?: string;
  attributes?: Record<string, string>;
  /** The assertion's conditions; default from a minute ago to five minutes on. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  authnContextClassRef?: string;
  /** The assertion's ID; default a new random one. */
  assertionId?: string;
  /** An error status (top-level code, and an optional second-level one) instead of an assertion. */
  status?: { code: string; subCode?: string };
  /** Signs the assertion (unless `signAssertion` is false) and, with `signResponse`, the whole response. */
  signer: SamlSigner;
  signAssertion?: boolean;
  signResponse?: boolean;
}

const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const id = () => `_${randomBytes(16).toString('hex')}`;
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

function assertionXml(input: SamlResponseInput, now: Date): string {
  const notBefore = (input.notBefore ?? new Date(now.getTime() - 60_000)).toISOString();
  const notOnOrAfter = (input.notOnOrAfter ?? new Date(now.getTime() + 300_000)).toISOString();
  const attributes = Object.entries(input.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${xmlText(name)}"><saml:AttributeValue>${xmlText(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('');
  const format = input.nameIdFormat ? ` Format="${xmlText(input.nameIdFormat)}"` : '';
  const context = input.authnContextClassRef ?? 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';
  return [
    `<saml:Assertion xmlns:saml="${ASSERTION}" ID="${xmlText(input.assertionId ?? id())}" Version="2.0" IssueInstant="${now.toISOString()}">`,
    `<saml:Issuer>${xmlText(input.issuer)}</saml:Issuer>`,
    `<saml:Subject><saml:NameID${format}>${xmlText(input.nameId)}</saml:NameID>`,
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">',
    `<saml:SubjectConfirmationData InResponseTo="${xmlText(input.inResponseTo)}" NotOnOrAfter="${notOnOrAfter}" Recipient="${xmlText(input.destination)}"/>`,
    '</saml:SubjectConfirmation></saml:Subject>',
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">`,
    `<saml:AudienceRestriction><saml:Audience>${xmlText(input.audience)}</saml:Audience></saml:AudienceRestriction>`,
    '</saml:Conditions>',
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id()}">`,
    `<saml:AuthnContext><saml:AuthnContextClassRef>${xmlText(context)}</saml:AuthnContextClassRef></saml:AuthnContext>`,
    '</saml:AuthnStatement>',
    attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '',
    '</saml:Assertion>',
  ].join('');
}

/** The response, its assertion signed unless told otherwise. */
function responseXml(input: SamlResponseInput, now: Date): string {
  const status = input.status
    ? `<samlp:StatusCode Value="${xmlText(input.status.code)}">${
        input.status.subCode ? `<samlp:StatusCode Value="${xmlText(input.status.subCode)}"/>` : ''
      }</samlp:StatusCode>`
    : `<samlp:StatusCode Value="${SUCCESS}"/>`;
  const xml = [
    `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${id()}" Version="2.0"`,
    ` IssueInstant="${now.toISOString()}" Destination="${xmlText(input.destination)}" InResponseTo="${xmlText(input.inResponseTo)}">`,
    `<saml:Issuer>${xmlText(input.issuer)}</saml:Issuer>`,
    `<samlp:Status>${status}</samlp:Status>`,
    input.status ? '' : assertionXml(input, now),
    '</samlp:Response>',
  ].join('');
  if (input.status || input.signAssertion === false) return xml;
  return signSamlPost(xml, `/*[local-name()='Response']/*[local-name()='Assertion']`, signingOptions(input.signer));
}

const signingOptions = (signer: SamlSigner) => ({
  privateKey: signer.privateKeyPem,
  publicCert: signer.pem,
  signatureAlgorithm: 'sha256' as const,
  digestAlgorithm: 'sha256',
});

/** The response as posted (base64), the whole of it signed last when the input says so. */
function posted(xml: string, input: SamlResponseInput): string {
  const signed = input.signResponse
    ? signSamlPost(xml, `/*[local-name()='Response']`, signingOptions(input.signer))
    : xml;
  return Buffer.from(signed).toString('base64');
}

/** A SAML 2.0 Response as an identity provider posts it (base64), signed with the signer's key. */
export function samlResponse(input: SamlResponseInput, now = new Date()): string {
  return posted(responseXml(input, now), input);
}

/**
 * A response whose assertion (signed unless told otherwise) is encrypted for the holder of `certificatePem` as an
 * EncryptedAssertion: AES-256-GCM content, its key sent with RSA-OAEP (MGF1 with SHA-1).
 */
export async function encryptedSamlResponse(
  input: SamlResponseInput,
  certificatePem: string,
  now = new Date(),
): Promise<string> {
  const xml = responseXml(input, now);
  const assertion = /<saml:Assertion[\s>][\s\S]*<\/saml:Assertion>/.exec(xml)?.[0];
  if (!assertion) throw new Error('the response holds no assertion to encrypt');
  const options = {
    rsa_pub: new X509Certificate(certificatePem).publicKey.export({ type: 'spki', format: 'pem' }),
    pem: certificatePem,
    encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm' as const,
    keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p' as const,
  };
  const encrypted = await new Promise<string>((resolve, reject) => {
    xmlenc.encrypt(assertion, options, (error, result) => (error ? reject(error) : resolve(result)));
  });
  return posted(
    xml.replace(assertion, () => `<saml:EncryptedAssertion>${encrypted}</saml:EncryptedAssertion>`),
    input,
  );
}

/**
 * Whether a signed HTTP-Redirect request or response (SAML bindings §3.4.4.1) verifies with the certificate: the
 * signed string is rebuilt from the query as received, `SAMLRequest=…&RelayState=…&SigAlg=…` (or `SAMLResponse=…`),
 * still URL-encoded. Only RSA-SHA256.
 */
export function redirectSignatureVerifies(url: URL, certificatePem: string): boolean {
  const raw = new Map(
    url.search
      .slice(1)
      .split('&')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const),
  );
  const signature = url.searchParams.get('Signature');
  if (url.searchParams.get('SigAlg') !== 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256' || !signature) {
    return false;
  }
  const signed = ['SAMLRequest', 'SAMLResponse', 'RelayState', 'SigAlg']
    .map((name) => raw.get(name))
    .filter((pair) => pair !== undefined)
    .join('&');
  const verifier = createVerify('RSA-SHA256').update(signed);
  return verifier.verify(new X509Certificate(certificatePem).publicKey, Buffer.from(signature, 'base64'));
}

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/** What a test identity provider's LogoutRequest says, and how it is sent. */
export interface SamlLogoutRequestInput {
  /** The service provider's single logout service: where the request goes (and its Destination). */
  slo: string;
  issuer: string;
  nameId: string;
  nameIdFormat?: string;
  sessionIndexes?: readonly string[];
  /** The request's ID; default a new random one. Empty: none. */
  id?: string;
  /** The Destination attribute; default `slo`. Null: none. */
  destination?: string | null;
  notOnOrAfter?: Date;
  relayState?: string;
  /** Signs the HTTP-Redirect message (RSA-SHA256); none: unsigned. */
  signer?: SamlSigner;
}

/**
 * An identity provider's LogoutRequest over HTTP-Redirect (SAML bindings §3.4.4.1): the XML deflated, base64 and
 * URL-encoded as SAMLRequest, then RelayState and SigAlg, the Signature over `SAMLRequest=…&RelayState=…&SigAlg=…`
 * exactly as encoded. Returns the address and the request's ID.
 */
export function samlLogoutRequestUrl(input: SamlLogoutRequestInput, now = new Date()): { url: string; id: string } {
  const requestId = input.id ?? id();
  const format = input.nameIdFormat ? ` Format="${xmlText(input.nameIdFormat)}"` : '';
  const destination = input.destination === undefined ? input.slo : input.destination;
  const xml = [
    `<samlp:LogoutRequest xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}"`,
    requestId ? ` ID="${xmlText(requestId)}"` : '',
    ` Version="2.0" IssueInstant="${now.toISOString()}"`,
    destination === null ? '' : ` Destination="${xmlText(destination)}"`,
    input.notOnOrAfter ? ` NotOnOrAfter="${input.notOnOrAfter.toISOString()}"` : '',
    '>',
    `<saml:Issuer>${xmlText(input.issuer)}</saml:Issuer>`,
    `<saml:NameID${format}>${xmlText(input.nameId)}</saml:NameID>`,
    ...(input.sessionIndexes ?? []).map((index) => `<samlp:SessionIndex>${xmlText(index)}</samlp:SessionIndex>`),
    '</samlp:LogoutRequest>',
  ].join('');
  let query = `SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;
  if (input.relayState !== undefined) query += `&RelayState=${encodeURIComponent(input.relayState)}`;
  if (input.signer) {
    query += `&SigAlg=${encodeURIComponent(RSA_SHA256)}`;
    const signature = createSign('RSA-SHA256').update(query).sign(input.signer.privateKeyPem, 'base64');
    query += `&Signature=${encodeURIComponent(signature)}`;
  }
  return { url: `${input.slo}?${query}`, id: requestId };
}

/** How a test identity provider signs a message it posts: the algorithms of its enveloped XML signature. */
export interface PostSigning {
  signer: SamlSigner;
  /** The signature's algorithm (RSA with it); default sha256. */
  signatureAlgorithm?: 'sha1' | 'sha256' | 'sha512';
  /** The reference's digest; default the signature's. */
  digestAlgorithm?: 'sha1' | 'sha256' | 'sha512';
}

/**
 * The message signed as an identity provider signs what it posts by HTTP-POST (SAML bindings §3.5.4): an enveloped
 * XML signature of the root element `root` by its ID, after its Issuer, with the signer's certificate as KeyInfo.
 */
export function signPostMessage(xml: string, root: string, signing: PostSigning): string {
  const signatureAlgorithm = signing.signatureAlgorithm ?? 'sha256';
  return signSamlPost(xml, `/*[local-name()='${root}']`, {
    privateKey: signing.signer.privateKeyPem,
    publicCert: signing.signer.pem,
    signatureAlgorithm,
    digestAlgorithm: signing.digestAlgorithm ?? signatureAlgorithm,
  });
}

/**
 * An identity provider's LogoutRequest posted by HTTP-POST: the same request as `samlLogoutRequestUrl` makes, base64
 * of its XML (not deflated), signed with an enveloped XML signature unless `signing` is left out; `change` may alter
 * the XML (signed) before it is encoded. Returns the form's fields and the request's ID.
 */
export function samlLogoutRequestPost(
  input: Omit<SamlLogoutRequestInput, 'signer'>,
  signing?: PostSigning,
  change: (xml: string) => string = (xml) => xml,
  now = new Date(),
): { form: Record<string, string>; id: string; xml: string } {
  const unsigned = samlLogoutRequestUrl({ ...input, signer: undefined }, now);
  const deflated = new URL(unsigned.url).searchParams.get('SAMLRequest') ?? '';
  const plain = inflateRawSync(Buffer.from(deflated, 'base64')).toString('utf8');
  const xml = change(signing ? signPostMessage(plain, 'LogoutRequest', signing) : plain);
  const form: Record<string, string> = { SAMLRequest: Buffer.from(xml, 'utf8').toString('base64') };
  if (input.relayState !== undefined) form.RelayState = input.relayState;
  return { form, id: unsigned.id, xml };
}

/**
 * Whether the root element of a message posted by HTTP-POST carries an enveloped XML signature of itself (its one
 * Reference the root's ID) that verifies with the certificate, RSA-SHA256 with a SHA-256 digest; the certificate of
 * the message's KeyInfo is not used.
 */
export function postSignatureVerifies(xml: string, certificatePem: string): boolean {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  const signatures = [...Array.from(root.childNodes)].filter(
    (node): node is Element =>
      node.nodeType === 1 &&
      (node as Element).localName === 'Signature' &&
      (node as Element).namespaceURI === 'http://www.w3.org/2000/09/xmldsig#',
  );
  if (signatures.length !== 1) return false;
  const verifier = new SignedXml({ publicCert: certificatePem, getCertFromKeyInfo: () => null });
  verifier.loadSignature(signatures[0]);
  const references = verifier.getReferences();
  if (references.length !== 1 || references[0].uri !== `#${root.getAttribute('ID')}`) return false;
  if (verifier.signatureAlgorithm !== RSA_SHA256) return false;
  if (references[0].digestAlgorithm !== 'http://www.w3.org/2001/04/xmlenc#sha256') return false;
  try {
    return verifier.checkSignature(xml);
  } catch {
    return false;
  }
}

const SOAP11_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';

/** A SOAP 1.1 envelope whose Body holds the message (SAML 2.0 Bindings §3.2.3.1). */
export function soapEnvelope(message: string): string {
  return `<soap:Envelope xmlns:soap="${SOAP11_ENVELOPE}"><soap:Body>${message}</soap:Body></soap:Envelope>`;
}

/**
 * An identity provider's LogoutRequest by the SOAP binding (SAML 2.0 Bindings §3.2), server to server: the same
 * request as `samlLogoutRequestPost` makes (`slo`: the single logout service of the SOAP binding), signed with an
 * enveloped XML signature unless `signing` is left out, `change` applied to it, in a SOAP 1.1 envelope. Returns the
 * envelope and the request's ID.
 */
export function samlLogoutRequestSoap(
  input: Omit<SamlLogoutRequestInput, 'signer' | 'relayState'>,
  signing?: PostSigning,
  change: (xml: string) => string = (xml) => xml,
  now = new Date(),
): { envelope: string; id: string } {
  const { xml, id: requestId } = samlLogoutRequestPost(input, signing, change, now);
  return { envelope: soapEnvelope(xml), id: requestId };
}
