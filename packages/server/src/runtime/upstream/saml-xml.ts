import { XMLParser } from 'fast-xml-parser';

/**
 * Reads the plain fields of SAML messages that node-saml does not return (Destination, InResponseTo, status):
 * namespace prefixes dropped, attributes as `@Name`, no entity expansion, every value a string.
 */
export const samlFieldParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  processEntities: false,
  parseAttributeValue: false,
  parseTagValue: false,
});

/** RSA signature algorithms an identity provider's logout message may be signed with (SHA-1 is not taken). */
export const SIGNATURE_ALGORITHMS: readonly string[] = [
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
];

/** The text of an element as samlFieldParser reads it: a string, or `#text` when the element has attributes. */
export function textOf(node: unknown): string | undefined {
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object' && '#text' in node) return String((node as { '#text': unknown })['#text']);
  return undefined;
}
