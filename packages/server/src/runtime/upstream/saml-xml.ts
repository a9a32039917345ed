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
