import { randomBytes } from 'node:crypto';
import { keepRelayState } from '../../queries/saml-relay-states.js';
import type { AuthenticationConnection } from '../authentication-connections.js';
import type { FlowContext } from '../authorize/flow.js';
import { browserBinding } from '../csrf.js';
import { runtimeDefaults } from '../defaults.js';
import type { SentSignIn } from './federation-reply.js';
import { HTTP_POST_BINDING } from './saml-binding.js';
import { sendSamlPostForm } from './saml-post-form.js';
import { type SentRequest, samlClient, samlIdentityProvider, samlServiceProvider } from './saml-provider.js';
import { usableProvider } from './usable-provider.js';

/** What a SAML sign-in keeps, sealed, under its RelayState: the request to go on with, and the checks. */
export interface SamlState extends SentSignIn {
  kind: 'saml-relay-state';
  /** The AuthnRequest sent: the response must answer it (InResponseTo). */
  request: SentRequest;
}

/**
 * Signs the person in at an upstream SAML 2.0 identity provider (a Saml20 connection chosen by `whr`): an
 * AuthnRequest over the provider's single sign-on binding (HTTP-Redirect; else HTTP-POST, a page whose form posts
 * it), the authorization request kept sealed under the RelayState's id; prompt=none asks for a passive sign-in,
 * prompt=login for a fresh one, acr_values for those authentication context classes. The answer is posted to the ACS.
 */
export async function startSamlSignIn(flow: FlowContext, connection: AuthenticationConnection): Promise<Response> {
  const { ctx, c, request } = flow;
  const idp = await usableProvider(flow, connection, () => samlIdentityProvider(ctx, connection.id));
  // An NCName (SAML ID type): a letter or underscore first.
  const sent: SentRequest = { id: `_${randomBytes(20).toString('hex')}`, issuedAt: Date.now() };
  const state: SamlState = {
    kind: 'saml-relay-state',
    params: [...flow.params],
    connectionId: idp.connectionId,
    request: sent,
    browser: browserBinding(ctx, c),
    expiresAt: Date.now() + runtimeDefaults.interactionLifetime * 1000,
  };
  const client = samlClient(idp, await samlServiceProvider(ctx), sent, {
    passive: request.prompt.includes('none'),
    forceAuthn: request.prompt.includes('login'),
    authnContext: request.acrValues,
  });
  // RelayState may hold 80 bytes at most (SAML 2.0 Bindings §3.4.3): it names the sign-in, which is kept here.
  const relayState = randomBytes(18).toString('base64url');
  await keepRelayState(ctx.db, relayState, ctx.box.seal(JSON.stringify(state)), new Date(state.expiresAt));
  if (idp.ssoBinding === HTTP_POST_BINDING) {
    const message = await client.getAuthorizeMessageAsync(relayState, undefined, {});
    const fields = { SAMLRequest: String(message.SAMLRequest), RelayState: relayState };
    return sendSamlPostForm(ctx, c, { action: idp.ssoUrl, fields }, request.uiLocales);
  }
  const url = await client.getAuthorizeUrlAsync(relayState, undefined, {});
  c.header('Cache-Control', 'no-store');
  return c.redirect(url, 302);
}
