import { ClientConfiguration, type OAuthClient } from '../runtime/clients.js';

/**
 * An OAuth client object as the runtime reads one (no database): client id `app`, no secret, the given configuration
 * through the runtime's schema, and the given scopes.
 */
export function clientObject(configuration: Record<string, unknown>, scopes: string[]): OAuthClient {
  return {
    connectionId: '00000000-0000-4000-8000-000000000001',
    name: 'App',
    clientId: 'app',
    configuration: ClientConfiguration.parse(configuration),
    scopes,
    dependencyConnectionNames: [],
    claimSets: [],
    claimTransformations: [],
    clientSecretHash: null,
    clientSecretEnc: null,
  };
}
