/** The person a SAML 2.0 identity provider or a WS-Federation token service vouched for, in one assertion. */
export interface FederatedIdentity {
  nameId: string;
  nameIdFormat?: string;
  /** From an e-mail NameID, else from the usual e-mail attributes. */
  email?: string;
  /** The SessionIndex of the SAML 2.0 AuthnStatement: the identity provider's session, named again at logout. */
  sessionIndex?: string;
  /** The authentication class (SAML 2.0 AuthnContextClassRef, SAML 1.1 AuthenticationMethod). */
  acr?: string;
  /** The ID of the assertion (SAML 1.1 AssertionID), which may be accepted once only. */
  assertionId: string;
  /** The latest NotOnOrAfter of the assertion (its conditions or a subject confirmation): its end of validity. */
  notOnOrAfter: Date;
}

const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Attribute names identity providers put an e-mail address under (compared case-insensitively), most wanted first. */
const emailAttributes = [
  'email',
  'mail',
  'emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'urn:oid:1.2.840.113549.1.9.1',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'http://schemas.xmlsoap.org/claims/emailaddress',
];

const looksLikeEmail = (value: unknown): value is string =>
  typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value.trim());

/**
 * The e-mail address of an assertion: its NameID when in the e-mail format, else the first e-mail-like value of the
 * usual attributes (a value may be one string or a list).
 */
export function federatedEmail(
  nameId: string | undefined,
  nameIdFormat: string | undefined,
  attributes: Iterable<[string, unknown]>,
): string | undefined {
  if (nameIdFormat === EMAIL_NAME_ID && looksLikeEmail(nameId)) return nameId.trim();
  const list = [...attributes];
  for (const wanted of emailAttributes) {
    for (const [name, value] of list) {
      if (name.toLowerCase() !== wanted) continue;
      const first = Array.isArray(value) ? value.find(looksLikeEmail) : value;
      if (looksLikeEmail(first)) return first.trim();
    }
  }
  return undefined;
}
