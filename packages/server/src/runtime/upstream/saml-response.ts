import { type Profile, SamlStatusError } from '@node-saml/node-saml';
import { runtimeDefaults } from '../defaults.js';
import { type FederatedIdentity, federatedEmail } from './federated-identity.js';
import { UpstreamError } from './provider.js';
import { type SamlIdentityProvider, type SamlServiceProvider, type SentRequest, samlClient } from './saml-provider.js';
import { samlFieldParser } from './saml-xml.js';

/** The person the identity provider vouched for. */
export type SamlIdentity = FederatedIdentity;

/** The Destination of the Response element (HTTP-POST binding §3.5.5.2), when it has one. */
function destinationOf(xml: string): string | undefined {
  const parsed = samlFieldParser.parse(xml) as { Response?: { '@Destination'?: unknown } };
  const destination = parsed.Response?.['@Destination'];
  return typeof destination === 'string' ? destination : undefined;
}

type XmlJs = Record<string, unknown>;
const children = (node: unknown, name: string): XmlJs[] => {
  const value = (node as XmlJs | undefined)?.[name];
  return Array.isArray(value) ? (value as XmlJs[]) : [];
};
const attribute = (node: XmlJs | undefined, name: string): string | undefined => {
  const value = (node?.$ as XmlJs | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};
const textOf = (node: XmlJs | undefined): string | undefined => (typeof node?._ === 'string' ? node._ : undefined);

/** The SubjectConfirmationData elements of the assertion's subject confirmations. */
const confirmationData = (assertion: XmlJs): XmlJs[] =>
  children(assertion, 'Subject')
    .flatMap((s) => children(s, 'SubjectConfirmation'))
    .flatMap((c) => children(c, 'SubjectConfirmationData'));

/** The Recipient values of the assertion's bearer subject confirmations. */
function recipientsOf(assertion: XmlJs): string[] {
  return confirmationData(assertion)
    .map((d) => attribute(d, 'Recipient'))
    .filter((r): r is string => r !== undefined);
}

/** The latest NotOnOrAfter of the assertion's conditions and subject confirmations, if it sets any. */
function notOnOrAfterOf(assertion: XmlJs): Date | undefined {
  const instants = [...children(assertion, 'Conditions'), ...confirmationData(assertion)]
    .map((node) => Date.parse(attribute(node, 'NotOnOrAfter') ?? ''))
    .filter((ms) => !Number.isNaN(ms));
  return instants.length > 0 ? new Date(Math.max(...instants)) : undefined;
}

function acrOf(assertion: XmlJs): string | undefined {
  const ref = children(assertion, 'AuthnStatement')
    .flatMap((s) => children(s, 'AuthnContext'))
    .flatMap((c) => children(c, 'AuthnContextClassRef'))[0];
  return textOf(ref)?.trim() || undefined;
}

function emailOf(profile: Profile): string | undefined {
  return federatedEmail(profile.nameID, profile.nameIDFormat, Object.entries(profile.attributes ?? {}));
}

/** The most specific status code of a SAML error status: `AuthnFailed`, `NoPassive`, `Requester`… */
function statusName(error: SamlStatusError): string {
  const codes = [...error.xmlStatus.matchAll(/Value="([^"]+)"/g)].map((m) => m[1]);
  return codes.at(-1)?.split(':').at(-1) ?? 'Responder';
}

/**
 * Validates an HTTP-POST `SAMLResponse` with node-saml (an EncryptedAssertion decrypted with the service provider's
 * key; signature of the response or of its assertion by one of the connection's certificates, InResponseTo of the
 * AuthnRequest this sign-in sent, audience, NotBefore/NotOnOrAfter with the allowed clock skew) and checks what
 * node-saml leaves to its caller: the Destination of the response, the Recipient of the subject confirmation, the
 * Issuer of the assertion, and that the assertion has an ID and an end of validity (SAML 2.0 Profiles §4.1.4.2) by
 * which its use can be recorded; whether it was used before is the caller's to check. Throws UpstreamError: an error
 * status as its code (`NoPassive`, `AuthnFailed`…), anything else as `invalid_response`.
 */
export async function readSamlResponse(
  idp: SamlIdentityProvider,
  sp: SamlServiceProvider,
  sent: SentRequest,
  samlResponse: string,
): Promise<SamlIdentity> {
  let profile: Profile | null;
  try {
    ({ profile } = await samlClient(idp, sp, sent).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    if (error instanceof SamlStatusError) {
      throw new UpstreamError(statusName(error), `the identity provider answered: ${error.message}`);
    }
    if (error instanceof Error && /NoPassive/.test(error.message)) {
      throw new UpstreamError('NoPassive', 'the identity provider cannot sign the person in without asking');
    }
    throw new UpstreamError('invalid_response', `the SAML response does not verify: ${String(error)}`);
  }
  if (!profile) throw new UpstreamError('NoPassive', 'the identity provider cannot sign the person in without asking');
  const invalid = (description: string) => new UpstreamError('invalid_response', description);
  const destination = destinationOf(Buffer.from(samlResponse, 'base64').toString('utf8'));
  if (destination !== undefined && destination !== sp.acsUrl) {
    throw invalid(`the response is addressed to ${destination}, not to this service`);
  }
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlJs } | undefined)?.Assertion ?? {};
  const recipients = recipientsOf(assertion);
  if (recipients.length > 0 && !recipients.includes(sp.acsUrl)) {
    throw invalid(`the assertion is for ${recipients.join(', ')}, not for this service`);
  }
  if (profile.issuer !== idp.entityId) {
    throw invalid(`the assertion was issued by ${String(profile.issuer)}, not by ${idp.entityId}`);
  }
  if (typeof profile.nameID !== 'string' || profile.nameID === '') throw invalid('the assertion has no NameID');
  const assertionId = attribute(assertion, 'ID');
  if (!assertionId) throw invalid('the assertion has no ID');
  if (assertionId.length > runtimeDefaults.maxSamlAssertionIdLength) {
    throw invalid(`the assertion ID is longer than ${runtimeDefaults.maxSamlAssertionIdLength} characters`);
  }
  const notOnOrAfter = notOnOrAfterOf(assertion);
  if (!notOnOrAfter) throw invalid('the assertion sets no NotOnOrAfter: it would never cease to be valid');
  const email = emailOf(profile);
  const acr = acrOf(assertion);
  return {
    nameId: profile.nameID,
    ...(profile.nameIDFormat ? { nameIdFormat: profile.nameIDFormat } : {}),
    ...(typeof profile.sessionIndex === 'string' && profile.sessionIndex !== ''
      ? { sessionIndex: profile.sessionIndex }
      : {}),
    ...(email ? { email } : {}),
    ...(acr ? { acr } : {}),
    assertionId,
    notOnOrAfter,
  };
}
