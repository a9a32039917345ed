import { promisify } from 'node:util';
import { XMLSerializer } from '@xmldom/xmldom';
import xmlenc from 'xml-encryption';
import { UpstreamError } from './provider.js';
import { attributeOf, childElements, ns } from './wsfed-xml.js';

const XENC11 = 'http://www.w3.org/2009/xmlenc11#';
const decrypt = promisify(xmlenc.decrypt).bind(xmlenc) as (xml: string, options: { key: string }) => Promise<string>;

/**
 * Content encryption a token may use (XML Encryption 1.1): AES-GCM and AES-CBC, what AD FS uses (AES-256-CBC) among
 * them. Triple DES is refused.
 */
export const CONTENT_ENCRYPTION_ALGORITHMS = [
  `${XENC11}aes256-gcm`,
  `${XENC11}aes128-gcm`,
  `${ns.xenc}aes256-cbc`,
  `${ns.xenc}aes128-cbc`,
] as const;

/**
 * Transport of the content key: RSA-OAEP (MGF1 with SHA-1), what AD FS uses. RSA PKCS#1 v1.5 is refused: AD FS does
 * not need it, and its decryption errors are an oracle on this service's key (Node.js no longer offers it either).
 */
export const KEY_TRANSPORT_ALGORITHMS = [`${ns.xenc}rsa-oaep-mgf1p`] as const;

const ELEMENT_TYPE = `${ns.xenc}Element`;

const invalid = (description: string) => new UpstreamError('invalid_response', description);

/**
 * Whether the requested security token is encrypted: a SAML 2.0 saml:EncryptedAssertion, or an xenc:EncryptedData
 * standing for the assertion (what AD FS sends for a SAML 1.1 token when the relying party has an encryption key).
 */
export function isEncryptedToken(token: Element): boolean {
  return (
    (token.namespaceURI === ns.saml2 && token.localName === 'EncryptedAssertion') ||
    (token.namespaceURI === ns.xenc && token.localName === 'EncryptedData')
  );
}

/** The token and the elements under it of that local name, whatever their namespace. */
function named(token: Element, localName: string): Element[] {
  const under = Array.from(token.getElementsByTagNameNS('*', localName));
  return token.localName === localName ? [token, ...under] : under;
}

/** The one EncryptionMethod of an EncryptedData or EncryptedKey, when it names one of the algorithms allowed. */
function algorithmOf(element: Element, allowed: readonly string[], what: string): string {
  const methods = childElements(element, ns.xenc, 'EncryptionMethod');
  const algorithm = methods.length === 1 ? (attributeOf(methods[0], 'Algorithm') ?? '') : '';
  if (!allowed.includes(algorithm)) {
    throw invalid(`the token's ${what} encryption ${algorithm || '(none)'} is not accepted`);
  }
  return algorithm;
}

/**
 * Checks the shape of an encrypted token before anything is decrypted: one EncryptedData, of an element, and one
 * EncryptedKey (in its KeyInfo, or beside it in the EncryptedAssertion), each with one EncryptionMethod of the
 * algorithms allowed. xml-encryption looks its parts up by local name anywhere in what it is given, so nothing of
 * those names may appear twice.
 */
function checkShape(token: Element): void {
  const data = named(token, 'EncryptedData');
  const keys = named(token, 'EncryptedKey');
  if (data.length !== 1 || data[0].namespaceURI !== ns.xenc) {
    throw invalid('the encrypted token does not hold exactly one EncryptedData');
  }
  if (token.localName === 'EncryptedAssertion' && data[0].parentNode !== token) {
    throw invalid('the EncryptedAssertion does not hold its EncryptedData');
  }
  const type = attributeOf(data[0], 'Type');
  if (type !== undefined && type !== ELEMENT_TYPE) throw invalid(`the encrypted token is of type ${type}`);
  if (keys.length !== 1 || keys[0].namespaceURI !== ns.xenc) {
    throw invalid('the encrypted token does not hold exactly one EncryptedKey');
  }
  if (named(token, 'EncryptionMethod').length !== 2) {
    throw invalid('the encrypted token does not name one encryption method for its data and one for its key');
  }
  algorithmOf(data[0], CONTENT_ENCRYPTION_ALGORITHMS, 'content');
  algorithmOf(keys[0], KEY_TRANSPORT_ALGORITHMS, 'key transport');
}

/**
 * Decrypts an encrypted requested security token with this service's private key (PKCS#8 PEM) and returns the XML
 * it stands for, unparsed: the caller parses it as untrusted XML and verifies it as any token. Throws UpstreamError
 * `invalid_response` when it has another shape, uses another algorithm, or does not decrypt with the key.
 */
export async function decryptToken(token: Element, privateKeyPem: string): Promise<string> {
  checkShape(token);
  const xml = new XMLSerializer().serializeToString(token);
  try {
    // xml-encryption, as node-saml decrypts the SAML side's EncryptedAssertion with it.
    return await decrypt(xml, { key: privateKeyPem });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw invalid(`the token does not decrypt with this service's key: ${message}`);
  }
}
