import { inflateRawSync } from 'node:zlib';
import { runtimeDefaults } from '../defaults.js';
import { samlFieldParser } from './saml-xml.js';

/**
 * The parameters of an HTTP-Redirect message as received, each as its raw `name=value` (still URL-encoded, as the
 * signature covers it); undefined when a parameter of the message comes more than once.
 */
export function redirectParameters(rawQuery: string): Map<string, string> | undefined {
  const found = new Map<string, string>();
  for (const pair of rawQuery.split('&')) {
    const name = pair.split('=', 1)[0];
    if (!['SAMLRequest', 'SAMLResponse', 'RelayState', 'SigAlg', 'Signature'].includes(name)) continue;
    if (found.has(name)) return undefined;
    found.set(name, pair);
  }
  return found;
}

/** A SAML message received by the HTTP-Redirect binding (SAML 2.0 Bindings §3.4.4.1). */
export interface RedirectMessage<T> {
  /** The message's root element, its plain fields read (not yet trusted). */
  xml: T;
  /** What node-saml's validateRedirectAsync takes: the decoded parameters … */
  container: Record<string, string>;
  /** … and the signed string, the parameters exactly as received in the binding's order. */
  signedQuery: string;
  relayState?: string;
  sigAlg?: string;
  signature?: string;
}

/**
 * Reads a SAMLRequest or SAMLResponse sent by HTTP-Redirect: no parameter more than once, the message inflated
 * (bounded) and its root element `root`. Returns the reason as a string when it cannot be read.
 */
export function readRedirectMessage<T>(
  rawQuery: string,
  field: 'SAMLRequest' | 'SAMLResponse',
  root: string,
): RedirectMessage<T> | string {
  const raw = redirectParameters(rawQuery);
  if (!raw) return `a parameter of the ${root} comes more than once`;
  const value = (name: string) => new URLSearchParams(raw.get(name) ?? '').get(name) ?? undefined;
  const [message, relayState, sigAlg, signature] = [field, 'RelayState', 'SigAlg', 'Signature'].map(value);
  if (!message) return `the message holds no ${field}`;
  let xml: T | undefined;
  try {
    const inflated = inflateRawSync(Buffer.from(message, 'base64'), {
      maxOutputLength: runtimeDefaults.maxSamlFormBytes,
    });
    xml = (samlFieldParser.parse(inflated.toString('utf8')) as Record<string, T | undefined>)[root];
  } catch (error) {
    return `the ${field} cannot be read: ${String(error)}`;
  }
  if (!xml) return `the ${field} is not a ${root}`;
  const container: Record<string, string> = { [field]: message };
  if (sigAlg) container.SigAlg = sigAlg;
  if (signature) container.Signature = signature;
  if (relayState) container.RelayState = relayState;
  const signedQuery = [field, 'RelayState', 'SigAlg', 'Signature'].flatMap((name) => raw.get(name) ?? []).join('&');
  return {
    xml,
    container,
    signedQuery,
    ...(relayState ? { relayState } : {}),
    ...(sigAlg ? { sigAlg } : {}),
    ...(signature ? { signature } : {}),
  };
}
