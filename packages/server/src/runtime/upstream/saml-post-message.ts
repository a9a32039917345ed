import { SignedXml } from 'xml-crypto';
import type { SamlCredential } from './saml-credential.js';
import { SIGNATURE_ALGORITHMS, samlFieldParser } from './saml-xml.js';
import { childElements, ns, parseUntrustedXml } from './wsfed-xml.js';

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
/** Digests a reference may use (SHA-1 is not taken). */
const DIGEST_ALGORITHMS = [
  SHA256,
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
];
/** Transforms a reference may name: the enveloped signature, then canonicalization. */
const TRANSFORMS = [
  ENVELOPED,
  EXC_C14N,
  'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments',
];

/** A SAML message received by the HTTP-POST binding (SAML 2.0 Bindings §3.5.4), not yet verified. */
export interface PostMessage<T> {
  /** The message's XML, as received. */
  document: string;
  /** Its root element (a SAML protocol element of the name asked for) … */
  root: Element;
  /** … the enveloped signature the root carries, if any, and the SignatureMethod it names. */
  signature?: Element;
  sigAlg?: string;
  /** The root element's plain fields as received (not trusted: read them again from what the signature covers). */
  xml: T;
  relayState?: string;
}

/**
 * Reads a SAMLRequest or SAMLResponse posted by HTTP-POST: each field at most once, the message base64 of XML
 * without a document type declaration, its root element the SAML protocol element `root`, carrying at most one
 * signature of its own. Returns the reason as a string when it cannot be read.
 */
export function readPostMessage<T>(
  form: URLSearchParams,
  field: 'SAMLRequest' | 'SAMLResponse',
  root: string,
): PostMessage<T> | string {
  if ([field, 'RelayState'].some((name) => form.getAll(name).length > 1)) {
    return `a parameter of the ${root} comes more than once`;
  }
  const encoded = form.get(field);
  if (!encoded) return `the message holds no ${field}`;
  const document = Buffer.from(encoded, 'base64').toString('utf8');
  let element: Element;
  let xml: T | undefined;
  try {
    element = parseUntrustedXml(document).documentElement;
    xml = (samlFieldParser.parse(document) as Record<string, T | undefined>)[root];
  } catch (error) {
    return `the ${field} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (element.namespaceURI !== PROTOCOL || element.localName !== root || !xml) return `the ${field} is not a ${root}`;
  const signatures = childElements(element, ns.dsig, 'Signature');
  if (signatures.length > 1) return `the ${root} carries more than one signature`;
  const signedInfo = signatures[0] ? childElements(signatures[0], ns.dsig, 'SignedInfo')[0] : undefined;
  const method = signedInfo ? childElements(signedInfo, ns.dsig, 'SignatureMethod')[0] : undefined;
  const relayState = form.get('RelayState') ?? undefined;
  return {
    document,
    root: element,
    xml,
    ...(signatures[0] ? { signature: signatures[0], sigAlg: method?.getAttribute('Algorithm') ?? '' } : {}),
    ...(relayState ? { relayState } : {}),
  };
}

/** A signature that must not be checked any further: it does not cover the message, or not in a way taken here. */
class Unacceptable extends Error {}

/**
 * The signature must be RSA with SHA-256 or stronger, its one reference the root element's own ID, by an enveloped
 * signature, with a digest of SHA-256 or stronger.
 */
function checkReference(verifier: SignedXml, id: string): void {
  if (!SIGNATURE_ALGORITHMS.includes(verifier.signatureAlgorithm ?? '')) {
    throw new Unacceptable(`the message is signed with ${verifier.signatureAlgorithm}`);
  }
  const references = verifier.getReferences();
  if (references.length !== 1 || references[0].uri !== `#${id}`) {
    throw new Unacceptable('the signature does not cover the message (and it alone)');
  }
  const [reference] = references;
  if (!DIGEST_ALGORITHMS.includes(reference.digestAlgorithm ?? '')) {
    throw new Unacceptable(`the signature's digest is ${reference.digestAlgorithm}`);
  }
  const transforms = reference.transforms ?? [];
  if (!transforms.includes(ENVELOPED) || transforms.some((t) => !TRANSFORMS.includes(t))) {
    throw new Unacceptable('the signature is not an enveloped signature of the message');
  }
}

/**
 * Verifies the enveloped signature of a posted message with one of `certificates` (a certificate in the message's
 * KeyInfo is never used) and returns the message as the signature covers it. Against signature wrapping: the one
 * signature is a child of the root element, its one Reference the root's own ID (which no other element of the
 * document has), and what it covers is that root element. Throws Error with the reason when it does not verify.
 */
export function verifyPostSignature(message: PostMessage<unknown>, certificates: readonly string[]): string {
  const { root, signature } = message;
  if (!signature) throw new Error('the message is not signed');
  const id = root.getAttribute('ID') ?? '';
  if (id === '') throw new Error('the message has no ID');
  if (signature.getElementsByTagNameNS(ns.dsig, 'Transform').length > 2) {
    throw new Error('the signature has too many transforms');
  }
  let signed: string[] = [];
  let failure = 'no certificate';
  for (const publicCert of certificates) {
    const verifier = new SignedXml({ publicCert, getCertFromKeyInfo: () => null });
    try {
      verifier.loadSignature(signature);
      checkReference(verifier, id);
      if (verifier.checkSignature(message.document)) {
        // The references again, as the verified SignedInfo names them.
        checkReference(verifier, id);
        signed = verifier.getSignedReferences();
        break;
      }
      failure = 'a reference does not match its digest';
    } catch (error) {
      if (error instanceof Unacceptable) throw new Error(error.message);
      const reason = error instanceof Error ? error.message : String(error);
      failure = /signature value/.test(reason) ? 'the signature value is incorrect' : reason;
    }
  }
  if (signed.length !== 1) throw new Error(failure);
  const covered = parseUntrustedXml(signed[0]).documentElement;
  if (covered.localName !== root.localName || covered.namespaceURI !== PROTOCOL || covered.getAttribute('ID') !== id) {
    throw new Error('the signature covers something other than the message');
  }
  return signed[0];
}

/** The plain fields of the root element of a verified message (`verifyPostSignature`'s result). */
export function signedFields<T>(signed: string, root: string): T {
  const fields = (samlFieldParser.parse(signed) as Record<string, T | undefined>)[root];
  if (!fields) throw new Error(`the signed message is not a ${root}`);
  return fields;
}

/**
 * The message signed with this service's credential for the HTTP-POST binding, as node-saml signs its POST
 * AuthnRequests: an enveloped XML signature (RSA-SHA256, SHA-256 digest, exclusive canonicalization) of the root
 * element `root` by its ID, placed after its Issuer, with the certificate as KeyInfo.
 */
export function signEnveloped(xml: string, root: string, credential: SamlCredential): string {
  const signer = new SignedXml({
    privateKey: credential.privateKeyPem,
    publicCert: credential.certificatePem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  const rootPath = `/*[local-name(.)='${root}' and namespace-uri(.)='${PROTOCOL}']`;
  signer.addReference({ xpath: rootPath, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256 });
  const issuer = `${rootPath}/*[local-name(.)='Issuer' and namespace-uri(.)='${ASSERTION}']`;
  signer.computeSignature(xml, { location: { reference: issuer, action: 'after' } });
  return signer.getSignedXml();
}
