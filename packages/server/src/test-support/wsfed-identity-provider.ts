import { randomBytes, X509Certificate } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import xmlenc, { type EncryptionAlgorithm, type KeyEncryptionAlgorithm } from 'xml-encryption';
import type { SamlSigner } from './saml-identity-provider.js';

export { makeSamlSigner as makeWsFedSigner } from './saml-identity-provider.js';

/** What the unit tests of the token checks take as this service (the relying party) and the token service. */
export const testRelyingParty = {
  realm: 'https://idsvc.example/runtime/wsfed',
  replyUrl: 'https://idsvc.example/runtime/wsfed/reply.idp',
};
export const testTokenServiceId = 'http://sts.example/adfs/services/trust';
export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const EMAIL_CLAIM = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';

/** What a test security token service's assertion says. */
export interface WsFedTokenInput {
  /** SAML 2.0, or SAML 1.1 (what AD FS issues for WS-Federation by default). */
  format: 'saml2' | 'saml11';
  /** The service's issuer identity. */
  issuer: string;
  /** The relying party's realm; no audience restriction at all without it. */
  audience?: string;
  nameId: string;
  nameIdFormat?: string;
  /** Claims by type; SAML 1.1 splits a type at its last `/` into AttributeNamespace and AttributeName. */
  attributes?: Record<string, string>;
  /** The assertion's conditions; default from a minute ago to five minutes on. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** The assertion's ID (SAML 1.1 AssertionID); default a new random one. */
  assertionId?: string;
  /** SAML 2.0: the Recipient of the bearer subject confirmation. */
  recipient?: string;
  /** Signs the assertion; its certificate goes into the signature's KeyInfo. */
  signer: SamlSigner;
}

export const SAML2 = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const SAML11 = 'urn:oasis:names:tc:SAML:1.0:assertion';
export const TRUST_2005 = 'http://schemas.xmlsoap.org/ws/2005/02/trust';
export const TRUST_13 = 'http://docs.oasis-open.org/ws-sx/ws-trust/200512';

export const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const newAssertionId = () => `_${randomBytes(16).toString('hex')}`;

function saml2Assertion(input: WsFedTokenInput, id: string, now: Date, notBefore: string, notOnOrAfter: string) {
  const format = input.nameIdFormat ? ` Format="${xmlText(input.nameIdFormat)}"` : '';
  const recipient = input.recipient ? ` Recipient="${xmlText(input.recipient)}"` : '';
  const attributes = Object.entries(input.attributes ?? {})
    .map(
      ([n, v]) =>
        `<saml:Attribute Name="${xmlText(n)}"><saml:AttributeValue>${xmlText(v)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('');
  return [
    `<saml:Assertion xmlns:saml="${SAML2}" ID="${xmlText(id)}" Version="2.0" IssueInstant="${now.toISOString()}">`,
    `<saml:Issuer>${xmlText(input.issuer)}</saml:Issuer>`,
    `<saml:Subject><saml:NameID${format}>${xmlText(input.nameId)}</saml:NameID>`,
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">',
    `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}"${recipient}/>`,
    '</saml:SubjectConfirmation></saml:Subject>',
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">`,
    input.audience
      ? `<saml:AudienceRestriction><saml:Audience>${xmlText(input.audience)}</saml:Audience></saml:AudienceRestriction>`
      : '',
    '</saml:Conditions>',
    attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '',
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}"><saml:AuthnContext>`,
    '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>',
    '</saml:AuthnContext></saml:AuthnStatement>',
    '</saml:Assertion>',
  ].join('');
}

function saml11Assertion(input: WsFedTokenInput, id: string, now: Date, notBefore: string, notOnOrAfter: string) {
  const format = input.nameIdFormat ? ` Format="${xmlText(input.nameIdFormat)}"` : '';
  const subject = [
    `<saml:Subject><saml:NameIdentifier${format}>${xmlText(input.nameId)}</saml:NameIdentifier>`,
    '<saml:SubjectConfirmation><saml:ConfirmationMethod>urn:oasis:names:tc:SAML:1.0:cm:bearer</saml:ConfirmationMethod>',
    '</saml:SubjectConfirmation></saml:Subject>',
  ].join('');
  const attributes = Object.entries(input.attributes ?? {})
    .map(([type, value]) => {
      const cut = type.lastIndexOf('/');
      const names =
        cut > 0
          ? `AttributeName="${xmlText(type.slice(cut + 1))}" AttributeNamespace="${xmlText(type.slice(0, cut))}"`
          : `AttributeName="${xmlText(type)}" AttributeNamespace="urn:idsvc-test"`;
      return `<saml:Attribute ${names}><saml:AttributeValue>${xmlText(value)}</saml:AttributeValue></saml:Attribute>`;
    })
    .join('');
  return [
    `<saml:Assertion xmlns:saml="${SAML11}" MajorVersion="1" MinorVersion="1" AssertionID="${xmlText(id)}"`,
    ` Issuer="${xmlText(input.issuer)}" IssueInstant="${now.toISOString()}">`,
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">`,
    input.audience
      ? `<saml:AudienceRestrictionCondition><saml:Audience>${xmlText(input.audience)}</saml:Audience></saml:AudienceRestrictionCondition>`
      : '',
    '</saml:Conditions>',
    attributes ? `<saml:AttributeStatement>${subject}${attributes}</saml:AttributeStatement>` : '',
    '<saml:AuthenticationStatement AuthenticationMethod="urn:oasis:names:tc:SAML:1.0:am:password"',
    ` AuthenticationInstant="${now.toISOString()}">${subject}</saml:AuthenticationStatement>`,
    '</saml:Assertion>',
  ].join('');
}

/** A signed assertion as a security token service issues it (enveloped signature, RSA-SHA256, exclusive c14n). */
export function wsfedAssertion(input: WsFedTokenInput, now = new Date()): string {
  const id = input.assertionId ?? newAssertionId();
  const notBefore = (input.notBefore ?? new Date(now.getTime() - 60_000)).toISOString();
  const notOnOrAfter = (input.notOnOrAfter ?? new Date(now.getTime() + 300_000)).toISOString();
  const saml2 = input.format === 'saml2';
  const xml = (saml2 ? saml2Assertion : saml11Assertion)(input, id, now, notBefore, notOnOrAfter);
  const exclusive = 'http://www.w3.org/2001/10/xml-exc-c14n#';
  const signature = new SignedXml({
    privateKey: input.signer.privateKeyPem,
    publicCert: input.signer.pem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: exclusive,
    ...(saml2 ? {} : { idAttribute: 'AssertionID' }),
  });
  signature.addReference({
    xpath: "/*[local-name()='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', exclusive],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  // The schemas place the signature after the Issuer (SAML 2.0), or last (SAML 1.1).
  const location = saml2
    ? { reference: "/*/*[local-name()='Issuer']", action: 'after' as const }
    : { reference: '/*', action: 'append' as const };
  signature.computeSignature(xml, { prefix: 'ds', location });
  return signature.getSignedXml();
}

/**
 * The wresult around a token (any XML, so that tests can wrap what they like): a RequestSecurityTokenResponse of
 * WS-Trust 2005/02, or with `collection` one of WS-Trust 1.3 inside a RequestSecurityTokenResponseCollection.
 */
export function wsfedWrap(
  token: string,
  options: { realm: string; collection?: boolean; extra?: string; tokenType?: string },
): string {
  const trust = options.collection ? TRUST_13 : TRUST_2005;
  const tokenType = options.tokenType ?? (token.includes(SAML11) && !token.includes(SAML2) ? SAML11 : SAML2);
  const response = [
    `<t:RequestSecurityTokenResponse${options.collection ? '' : ` xmlns:t="${trust}"`}>`,
    '<wsp:AppliesTo xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy">',
    '<wsa:EndpointReference xmlns:wsa="http://www.w3.org/2005/08/addressing">',
    `<wsa:Address>${xmlText(options.realm)}</wsa:Address></wsa:EndpointReference></wsp:AppliesTo>`,
    `<t:RequestedSecurityToken>${token}</t:RequestedSecurityToken>`,
    options.extra ?? '',
    `<t:TokenType>${tokenType}</t:TokenType>`,
    `<t:RequestType>${trust}/Issue</t:RequestType>`,
    '</t:RequestSecurityTokenResponse>',
  ].join('');
  return options.collection
    ? `<t:RequestSecurityTokenResponseCollection xmlns:t="${trust}">${response}</t:RequestSecurityTokenResponseCollection>`
    : response;
}

/** A security token service's wresult: the signed assertion of `input` in a RequestSecurityTokenResponse. */
export function wsfedResult(input: WsFedTokenInput, options: { collection?: boolean } = {}, now = new Date()): string {
  return wsfedWrap(wsfedAssertion(input, now), { realm: input.audience ?? '', ...options });
}

/** How a token is encrypted for a relying party's certificate. */
export interface WsFedEncryption {
  /** The relying party's certificate (PEM): its public key transports the content key. */
  certificatePem: string;
  /** saml:EncryptedAssertion around the EncryptedData (SAML 2.0), or the EncryptedData alone (AD FS, SAML 1.1). */
  element?: 'EncryptedAssertion' | 'EncryptedData';
  /** Default AES-256-CBC, what AD FS uses. */
  encryptionAlgorithm?: EncryptionAlgorithm;
  /** Default RSA-OAEP (MGF1 with SHA-1), what AD FS uses. */
  keyEncryptionAlgorithm?: KeyEncryptionAlgorithm;
}

/**
 * A token (any XML, so that tests can encrypt what they like) encrypted with xml-encryption for the holder of the
 * certificate: an EncryptedData of type Element, its content key in an EncryptedKey in its KeyInfo.
 */
export async function wsfedEncrypt(token: string, encryption: WsFedEncryption): Promise<string> {
  const options = {
    rsa_pub: new X509Certificate(encryption.certificatePem).publicKey.export({ type: 'spki', format: 'pem' }),
    pem: encryption.certificatePem,
    encryptionAlgorithm: encryption.encryptionAlgorithm ?? 'http://www.w3.org/2001/04/xmlenc#aes256-cbc',
    keyEncryptionAlgorithm: encryption.keyEncryptionAlgorithm ?? 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
    warnInsecureAlgorithm: false,
  };
  const encrypted = await new Promise<string>((resolve, reject) => {
    xmlenc.encrypt(token, options, (error, result) => (error ? reject(error) : resolve(result)));
  });
  return encryption.element === 'EncryptedAssertion'
    ? `<saml:EncryptedAssertion xmlns:saml="${SAML2}">${encrypted}</saml:EncryptedAssertion>`
    : encrypted;
}

/**
 * A security token service's wresult whose signed assertion of `input` is encrypted for a relying party: SAML 2.0
 * as an EncryptedAssertion, SAML 1.1 as an EncryptedData, unless `encryption.element` says otherwise.
 */
export async function wsfedEncryptedResult(
  input: WsFedTokenInput,
  encryption: WsFedEncryption,
  options: { collection?: boolean } = {},
  now = new Date(),
): Promise<string> {
  const element = encryption.element ?? (input.format === 'saml2' ? 'EncryptedAssertion' : 'EncryptedData');
  const token = await wsfedEncrypt(wsfedAssertion(input, now), { ...encryption, element });
  const tokenType = input.format === 'saml2' ? SAML2 : SAML11;
  return wsfedWrap(token, { realm: input.audience ?? '', tokenType, ...options });
}
