import type { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { findRelayState } from '../../queries/saml-relay-states.js';
import { runtimePaths } from '../defaults.js';
import { federationReplyRoute } from './federation-reply.js';
import { UpstreamError } from './provider.js';
import { samlIdentityProvider, samlServiceProvider } from './saml-provider.js';
import { readSamlResponse } from './saml-response.js';
import type { SamlState } from './saml-start.js';

/**
 * The assertion consumer service of upstream SAML 2.0 sign-in (HTTP-POST binding): the SAMLResponse posted with the
 * RelayState (the id of the sign-in kept at its start), checked by node-saml against the connection's certificates and the AuthnRequest it answers (an
 * EncryptedAssertion decrypted with this service's credential first). A NoPassive status (prompt=none) is
 * login_required to the client.
 */
export function samlAcsRoute(ctx: AppContext): Hono {
  return federationReplyRoute(ctx, {
    path: runtimePaths.samlAcs,
    protocol: 'saml',
    stateField: 'RelayState',
    stateKind: 'saml-relay-state' satisfies SamlState['kind'],
    sealedState: async (ctx, relayState) => (relayState.length <= 80 ? findRelayState(ctx.db, relayState) : undefined),
    provider: samlIdentityProvider,
    verify: async (ctx, idp, form, sent: SamlState) => {
      const posted = form.get('SAMLResponse');
      if (!posted) throw new UpstreamError('invalid_response', 'the post holds no SAMLResponse');
      return readSamlResponse(idp, await samlServiceProvider(ctx), sent.request, posted);
    },
    clientError: (error) => (error.error === 'NoPassive' ? 'login_required' : 'access_denied'),
  });
}
