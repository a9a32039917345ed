import { attributeOf, childElements, descendants, ns, textOf } from './wsfed-xml.js';

/** What an assertion says, read alike from SAML 2.0 and SAML 1.1. */
export interface AssertionClaims {
  version: '2.0' | '1.1';
  id?: string | undefined;
  issuer?: string | undefined;
  nameId?: string | undefined;
  nameIdFormat?: string | undefined;
  /** NotBefore instants of the conditions and subject confirmations, as written. */
  notBefore: string[];
  /** NotOnOrAfter instants of the conditions and subject confirmations, as written. */
  notOnOrAfter: string[];
  /** The audiences of each audience restriction: every restriction must name this service. */
  audienceRestrictions: string[][];
  /** The Recipient of each bearer subject confirmation that names one (SAML 2.0). */
  recipients: string[];
  /** Attributes by name (SAML 1.1: AttributeNamespace/AttributeName, and AttributeName alone). */
  attributes: [string, string[]][];
  /** The authentication class (SAML 2.0 AuthnContextClassRef, SAML 1.1 AuthenticationMethod). */
  acr?: string | undefined;
}

const BEARER = ['urn:oasis:names:tc:SAML:2.0:cm:bearer', 'urn:oasis:names:tc:SAML:1.0:cm:bearer'];

/** The claims of a SAML 2.0 assertion (saml:Assertion of urn:oasis:names:tc:SAML:2.0:assertion). */
export function saml2Claims(assertion: Element): AssertionClaims {
  const saml = ns.saml2;
  const conditions = childElements(assertion, saml, 'Conditions');
  const nameId = descendants(assertion, saml, ['Subject', 'NameID'])[0];
  const confirmations = descendants(assertion, saml, ['Subject', 'SubjectConfirmation'])
    .filter((c) => BEARER.includes(attributeOf(c, 'Method') ?? ''))
    .flatMap((c) => childElements(c, saml, 'SubjectConfirmationData'));
  const timed = [...conditions, ...confirmations];
  return {
    version: '2.0',
    id: attributeOf(assertion, 'ID'),
    issuer: textOf(childElements(assertion, saml, 'Issuer')[0]),
    nameId: textOf(nameId),
    nameIdFormat: attributeOf(nameId, 'Format'),
    notBefore: timed.map((n) => attributeOf(n, 'NotBefore')).filter((v) => v !== undefined),
    notOnOrAfter: timed.map((n) => attributeOf(n, 'NotOnOrAfter')).filter((v) => v !== undefined),
    audienceRestrictions: descendants(assertion, saml, ['Conditions', 'AudienceRestriction']).map((r) =>
      childElements(r, saml, 'Audience').map((a) => textOf(a) ?? ''),
    ),
    recipients: confirmations.map((d) => attributeOf(d, 'Recipient')).filter((v) => v !== undefined),
    attributes: descendants(assertion, saml, ['AttributeStatement', 'Attribute']).map((a) => [
      attributeOf(a, 'Name') ?? '',
      childElements(a, saml, 'AttributeValue').map((v) => textOf(v) ?? ''),
    ]),
    acr: textOf(descendants(assertion, saml, ['AuthnStatement', 'AuthnContext', 'AuthnContextClassRef'])[0]),
  };
}

/**
 * The claims of a SAML 1.1 assertion (saml:Assertion of urn:oasis:names:tc:SAML:1.0:assertion, what AD FS issues
 * for WS-Federation by default): the subject is that of its statements, which must agree.
 */
export function saml11Claims(assertion: Element): AssertionClaims {
  const saml = ns.saml11;
  const conditions = childElements(assertion, saml, 'Conditions');
  const statements = ['AuthenticationStatement', 'AttributeStatement', 'AuthorizationDecisionStatement'].flatMap(
    (name) => childElements(assertion, saml, name),
  );
  const nameIds = statements.flatMap((s) => descendants(s, saml, ['Subject', 'NameIdentifier']));
  const subjects = new Set(nameIds.map((n) => `${attributeOf(n, 'Format') ?? ''} ${textOf(n) ?? ''}`));
  const attributes = descendants(assertion, saml, ['AttributeStatement', 'Attribute']).flatMap((a) => {
    const name = attributeOf(a, 'AttributeName') ?? '';
    const namespace = attributeOf(a, 'AttributeNamespace');
    const values = childElements(a, saml, 'AttributeValue').map((v) => textOf(v) ?? '');
    const names = namespace ? [`${namespace.replace(/\/+$/, '')}/${name}`, name] : [name];
    return names.map((n): [string, string[]] => [n, values]);
  });
  return {
    version: '1.1',
    id: attributeOf(assertion, 'AssertionID'),
    issuer: attributeOf(assertion, 'Issuer'),
    // Statements about different subjects: none of them is taken.
    nameId: subjects.size === 1 ? textOf(nameIds[0]) : undefined,
    nameIdFormat: subjects.size === 1 ? attributeOf(nameIds[0], 'Format') : undefined,
    notBefore: conditions.map((n) => attributeOf(n, 'NotBefore')).filter((v) => v !== undefined),
    notOnOrAfter: conditions.map((n) => attributeOf(n, 'NotOnOrAfter')).filter((v) => v !== undefined),
    audienceRestrictions: descendants(assertion, saml, ['Conditions', 'AudienceRestrictionCondition']).map((r) =>
      childElements(r, saml, 'Audience').map((a) => textOf(a) ?? ''),
    ),
    recipients: [],
    attributes,
    acr: attributeOf(childElements(assertion, saml, 'AuthenticationStatement')[0], 'AuthenticationMethod'),
  };
}
