import { z } from 'zod';

/**
 * An application relying on the service. Applications are the protocol connections (OAuth 2.0 / OpenID Connect,
 * SAML 2.0, WS-Federation): each lets one application sign its users in, and is listed under the connection's name.
 */
export const Application = z.object({
  name: z.string(),
  description: z.string().nullable(),
  /** The protocol connection the application signs in through (the connection of the same name). */
  protocolConnectionName: z.string(),
  /** The protocol: OAuth20, Saml20, WsFederation… */
  pluginType: z.string(),
  /** OAuth 2.0 client id or entity id, where the connection has one. */
  clientId: z.string().nullable(),
  enabled: z.boolean(),
});
export type Application = z.infer<typeof Application>;
