import { SignedXml } from 'xml-crypto';
import { runtimeDefaults } from '../defaults.js';
import { type FederatedIdentity, federatedEmail } from './federated-identity.js';
import { UpstreamError } from './provider.js';
import { type AssertionClaims, saml2Claims, saml11Claims } from './wsfed-assertion.js';
import type { WsFedRelyingParty, WsFedTokenService } from './wsfed-provider.js';
import { childElements, elementsOf, ns, parseUntrustedXml } from './wsfed-xml.js';

/** The person a security token service vouched for. */
export type WsFedIdentity = FederatedIdentity;

const invalid = (description: string) => new UpstreamError('invalid_response', description);

/** How many SAML 2.0 and SAML 1.1 assertions the document holds, wherever they are. */
export function assertionCount(doc: Document): number {
  return [ns.saml2, ns.saml11].reduce((n, s) => n + doc.getElementsByTagNameNS(s, 'Assertion').length, 0);
}

/** Parses the posted wresult (no DTD): UpstreamError `invalid_response` when it is refused. */
export function parseWresult(wresult: string): Document {
  try {
    return parseUntrustedXml(wresult);
  } catch (error) {
    throw invalid(`wresult is refused: ${(error as Error).message}`);
  }
}

/**
 * The one token of the sign-in response: the element of wst:RequestSecurityTokenResponse(Collection)/
 * RequestedSecurityToken, whatever it is.
 */
export function requestedToken(doc: Document): Element {
  // Against signature wrapping: the signed assertion is the only one the document holds, wherever it is.
  const count = assertionCount(doc);
  if (count > 1) throw invalid(`wresult holds ${count} assertions, not one`);
  const root = doc.documentElement;
  const trust = [ns.trust13, ns.trust2005].find((n) => n === root.namespaceURI);
  if (!trust) throw invalid('wresult is not a RequestSecurityTokenResponse');
  const responses =
    root.localName === 'RequestSecurityTokenResponseCollection'
      ? childElements(root, trust, 'RequestSecurityTokenResponse')
      : root.localName === 'RequestSecurityTokenResponse'
        ? [root]
        : [];
  if (responses.length !== 1) throw invalid('wresult does not hold exactly one RequestSecurityTokenResponse');
  const requested = childElements(responses[0], trust, 'RequestedSecurityToken');
  if (requested.length !== 1) throw invalid('the response does not hold exactly one RequestedSecurityToken');
  const [token, ...more] = elementsOf(requested[0]);
  if (!token || more.length > 0) throw invalid('the response does not hold exactly one requested security token');
  return token;
}

/** The token as a SAML 2.0 or SAML 1.1 assertion. */
function assertionOf(token: Element): { assertion: Element; version: AssertionClaims['version'] } {
  const version = token.namespaceURI === ns.saml2 ? '2.0' : token.namespaceURI === ns.saml11 ? '1.1' : undefined;
  if (token.localName !== 'Assertion' || !version) {
    throw invalid('the requested security token is not a SAML 2.0 or SAML 1.1 assertion');
  }
  return { assertion: token, version };
}

/**
 * Verifies the assertion's enveloped signature with xml-crypto against the connection's certificates (a certificate
 * in the message's KeyInfo is never used) and returns the assertion as signed: its one Reference must point at the
 * assertion's own ID, and the claims are read from what the signature covers, not from the document around it.
 */
function signedAssertion(wresult: string, assertion: Element, version: '2.0' | '1.1', certificates: string[]): Element {
  const id = assertion.getAttribute(version === '2.0' ? 'ID' : 'AssertionID') ?? '';
  if (id === '') throw invalid('the assertion has no ID');
  const signatures = childElements(assertion, ns.dsig, 'Signature');
  if (signatures.length !== 1) throw invalid('the assertion does not carry exactly one signature');
  let signed: string[] = [];
  let failure = 'no certificate';
  for (const publicCert of certificates) {
    const verifier = new SignedXml({
      publicCert,
      getCertFromKeyInfo: () => null,
      ...(version === '1.1' ? { idAttribute: 'AssertionID' } : {}),
    });
    try {
      verifier.loadSignature(signatures[0]);
      const references = verifier.getReferences();
      if (references.length !== 1 || references[0].uri !== `#${id}`) {
        throw invalid(`the signature does not cover the assertion ${id} (and it alone)`);
      }
      if (verifier.checkSignature(wresult)) {
        signed = verifier.getSignedReferences();
        break;
      }
      failure = 'a reference does not match its digest';
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      failure = error instanceof Error ? error.message : String(error);
    }
  }
  if (signed.length !== 1) throw invalid(`the assertion's signature does not verify: ${failure}`);
  const covered = parseUntrustedXml(signed[0]).documentElement;
  const coveredId = covered.getAttribute(version === '2.0' ? 'ID' : 'AssertionID');
  if (covered.localName !== 'Assertion' || covered.namespaceURI !== assertion.namespaceURI || coveredId !== id) {
    throw invalid('the signature covers something other than the assertion');
  }
  return covered;
}

/** The NotOnOrAfter the assertion is valid until (the latest it sets), once its conditions hold at `now`. */
function validUntil(claims: AssertionClaims, now: number): Date {
  const skew = runtimeDefaults.clockSkew * 1000;
  const instant = (value: string) => {
    const ms = Date.parse(value);
    if (Number.isNaN(ms) || !/^\d{4}-\d\d-\d\dT/.test(value)) throw invalid(`the assertion has a bad instant ${value}`);
    return ms;
  };
  const notBefore = claims.notBefore.map(instant);
  const notOnOrAfter = claims.notOnOrAfter.map(instant);
  if (notOnOrAfter.length === 0) throw invalid('the assertion sets no NotOnOrAfter: it would never cease to be valid');
  if (notBefore.some((ms) => ms > now + skew)) throw invalid('the assertion is not valid yet (NotBefore)');
  if (notOnOrAfter.some((ms) => ms <= now - skew)) throw invalid('the assertion has expired (NotOnOrAfter)');
  return new Date(Math.max(...notOnOrAfter));
}

function emailOf(claims: AssertionClaims): string | undefined {
  return federatedEmail(claims.nameId, claims.nameIdFormat, claims.attributes);
}

/**
 * Verifies a token of a WS-Federation sign-in response, in `xml` (the document it is part of, as received): one SAML
 * 2.0 or SAML 1.1 assertion, signed by one of the connection's certificates, issued by the connection's entity id,
 * for this service's realm (every audience restriction names it), delivered to its reply address (SAML 2.0
 * Recipient, when set), and valid now within the allowed clock skew. Whether the assertion was used before is the
 * caller's to check. Throws UpstreamError `invalid_response`.
 */
export function verifiedIdentity(
  sts: Pick<WsFedTokenService, 'entityId' | 'certificates'>,
  rp: WsFedRelyingParty,
  xml: string,
  token: Element,
  now: number,
): WsFedIdentity {
  const { assertion, version } = assertionOf(token);
  const signed = signedAssertion(xml, assertion, version, sts.certificates);
  const claims = version === '2.0' ? saml2Claims(signed) : saml11Claims(signed);
  const assertionId = claims.id ?? '';
  if (assertionId.length > runtimeDefaults.maxSamlAssertionIdLength) {
    throw invalid(`the assertion ID is longer than ${runtimeDefaults.maxSamlAssertionIdLength} characters`);
  }
  if (claims.issuer !== sts.entityId) {
    throw invalid(`the assertion was issued by ${String(claims.issuer)}, not by ${sts.entityId}`);
  }
  if (claims.audienceRestrictions.length === 0) throw invalid('the assertion names no audience');
  const foreign = claims.audienceRestrictions.find((audiences) => !audiences.includes(rp.realm));
  if (foreign) throw invalid(`the assertion is for ${foreign.join(', ')}, not for this service`);
  const recipient = claims.recipients.find((r) => r !== rp.replyUrl);
  if (recipient !== undefined) throw invalid(`the assertion is to be delivered to ${recipient}, not to this service`);
  const notOnOrAfter = validUntil(claims, now);
  if (!claims.nameId) throw invalid('the assertion names no single subject');
  const email = emailOf(claims);
  return {
    nameId: claims.nameId,
    ...(claims.nameIdFormat ? { nameIdFormat: claims.nameIdFormat } : {}),
    ...(email ? { email } : {}),
    ...(claims.acr ? { acr: claims.acr } : {}),
    assertionId,
    notOnOrAfter,
  };
}

/**
 * Verifies the `wresult` of a WS-Federation sign-in response (wa=wsignin1.0) whose token is not encrypted: a
 * RequestSecurityTokenResponse (alone or in a collection, WS-Trust 1.3 or 2005/02) whose RequestedSecurityToken is
 * one assertion, verified as `verifiedIdentity` says. No DTD is accepted. Throws UpstreamError `invalid_response`.
 */
export function readWsFedResult(
  sts: Pick<WsFedTokenService, 'entityId' | 'certificates'>,
  rp: WsFedRelyingParty,
  wresult: string,
  now = Date.now(),
): WsFedIdentity {
  return verifiedIdentity(sts, rp, wresult, requestedToken(parseWresult(wresult)), now);
}
