export const HTTP_REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const HTTP_POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** The bindings this service sends and receives front-channel messages by (SAML 2.0 Bindings §3.4, §3.5). */
export type SamlBinding = typeof HTTP_REDIRECT_BINDING | typeof HTTP_POST_BINDING;

/** An endpoint of an identity provider's metadata, with its binding. */
export interface SamlEndpoint {
  binding: SamlBinding;
  location: string;
  responseLocation?: string;
}

/** The service of a list of SAML endpoints this service uses: the first HTTP-Redirect one, else the first HTTP-POST. */
export function frontChannelService(services: unknown): SamlEndpoint | undefined {
  type Endpoint = { binding?: unknown; location?: unknown; responseLocation?: unknown };
  const list = Array.isArray(services) ? (services as Endpoint[]) : [];
  const of = (binding: SamlBinding) => list.find((s) => s.binding === binding && typeof s.location === 'string');
  const found = of(HTTP_REDIRECT_BINDING) ?? of(HTTP_POST_BINDING);
  if (!found) return undefined;
  const { responseLocation } = found;
  return {
    binding: found.binding as SamlBinding,
    location: String(found.location),
    ...(typeof responseLocation === 'string' ? { responseLocation } : {}),
  };
}
