import { DOMParser } from '@xmldom/xmldom';

/** Namespaces of the WS-Federation sign-in response, the tokens it carries, and this service's metadata. */
export const ns = {
  trust2005: 'http://schemas.xmlsoap.org/ws/2005/02/trust',
  trust13: 'http://docs.oasis-open.org/ws-sx/ws-trust/200512',
  saml2: 'urn:oasis:names:tc:SAML:2.0:assertion',
  saml11: 'urn:oasis:names:tc:SAML:1.0:assertion',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
  xenc: 'http://www.w3.org/2001/04/xmlenc#',
  /** SAML 2.0 metadata, WS-Federation 1.2 and WS-Addressing: this service's federation metadata. */
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  fed: 'http://docs.oasis-open.org/wsfed/federation/200706',
  wsa: 'http://www.w3.org/2005/08/addressing',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
} as const;

const ELEMENT_NODE = 1;

/**
 * Parses XML that came from outside. A document type declaration is refused before parsing (no DTD, no entity of
 * any kind: xmldom would not fetch external ones, but internal ones can still bloat or disguise content), and so is
 * anything the parser finds amiss, warnings included (it would otherwise repair the document). Throws Error.
 */
export function parseUntrustedXml(xml: string): Document {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new Error('the XML has a document type declaration');
  const fail = (message: string) => {
    throw new Error(`the XML is not well-formed: ${message.trim()}`);
  };
  const doc = new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(
    xml,
    'text/xml',
  );
  if (!doc?.documentElement) throw new Error('the XML has no root element');
  for (let node = doc.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 10) throw new Error('the XML has a document type declaration');
  }
  return doc;
}

/** The element children of `parent` of that namespace and local name. */
export function childElements(parent: Node, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== ELEMENT_NODE) continue;
    const element = node as Element;
    if (element.namespaceURI === namespace && element.localName === localName) found.push(element);
  }
  return found;
}

/** All element children of `parent`, whatever their name. */
export function elementsOf(parent: Node): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === ELEMENT_NODE) found.push(node as Element);
  }
  return found;
}

/** The elements found by following the path of local names down from `parent`, all in one namespace. */
export function descendants(parent: Node, namespace: string, path: readonly string[]): Element[] {
  let level: Node[] = [parent];
  for (const name of path) level = level.flatMap((node) => childElements(node, namespace, name));
  return level as Element[];
}

/** The value of an attribute without namespace, when the element has it. */
export function attributeOf(element: Element | undefined, name: string): string | undefined {
  return element?.hasAttribute(name) ? (element.getAttribute(name) ?? undefined) : undefined;
}

/** The element's text, trimmed; undefined when empty. */
export function textOf(element: Element | undefined): string | undefined {
  return element?.textContent?.trim() || undefined;
}
