import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { expect } from 'vitest';
import { apiBase } from '../helpers/api.js';
import { type RuntimeServer, unique } from './support.js';

/** Upstream OpenID Connect sign-in in end-to-end tests: a real node-oidc-provider, in the test's process. */

export const upstreamClientId = 'idsvc-upstream-client';
export const upstreamSecret = 'upstream-client-secret-0123456789';

export interface UpstreamOptions {
  /** The post-logout addresses registered for this service's client at the provider. */
  postLogoutRedirectUris?: string[];
  /** Whether the provider offers RP-Initiated Logout (an end_session_endpoint); default true. */
  endSession?: boolean;
  /**
   * This service's back-channel logout address, registered for its client at the provider (OpenID Connect
   * Back-Channel Logout 1.0, `sid` required): the provider then puts `sid` in its ID tokens and posts logout tokens
   * there when the person signs out at the provider.
   */
  backchannelLogoutUri?: string;
  /** The provider's signing keys (private JWKs); default: keys of its own making. */
  jwks?: { keys: Record<string, unknown>[] };
}

/** An upstream OpenID Connect provider (node-oidc-provider) whose accounts are e-mail addresses. */
export async function startUpstream(callback: string, options: UpstreamOptions = {}) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(url, {
    clients: [
      {
        client_id: upstreamClientId,
        client_secret: upstreamSecret,
        redirect_uris: [callback],
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        ...(options.backchannelLogoutUri
          ? { backchannel_logout_uri: options.backchannelLogoutUri, backchannel_logout_session_required: true }
          : {}),
      },
    ],
    ...(options.jwks ? { jwks: options.jwks } : {}),
    claims: { email: ['email'], openid: ['sub'] },
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id, email: id }) }),
    cookies: { keys: ['upstream-test-cookie-key'] },
    features: {
      rpInitiatedLogout: { enabled: options.endSession !== false },
      ...(options.backchannelLogoutUri ? { backchannelLogout: { enabled: true } } : {}),
    },
  });
  server.on('request', provider.callback());
  return { url, server };
}

/** Creates a GenericOidcProvider connection to the provider at `issuer` with this service's client there. */
export async function createOidcConnection(
  server: RuntimeServer,
  issuer: string,
  prefix = 'OidcUpstream',
): Promise<{ name: string; id: string }> {
  const name = unique(prefix);
  const created = await server.admin.post(`${apiBase}/connections`, {
    body: {
      name,
      connectionType: 'Authentication',
      pluginType: 'GenericOidcProvider',
      configuration: { issuer, clientId: upstreamClientId, clientSecret: upstreamSecret },
    },
  });
  expect(created.status).toBe(200);
  return { name, id: (created.body as { id: string }).id };
}
