import { createHash } from 'node:crypto';
import { randomSecret } from '../../crypto/digest.js';
import type { AuthenticationConnection } from '../authentication-connections.js';
import type { FlowContext } from '../authorize/flow.js';
import { browserBinding } from '../csrf.js';
import { runtimeDefaults, runtimePaths } from '../defaults.js';
import { upstreamProvider } from './provider.js';
import { usableProvider } from './usable-provider.js';

/** What the upstream round trip carries in its `state`, sealed: the request to go on with, and the checks. */
export interface UpstreamState {
  params: [string, string][];
  connectionId: string;
  nonce: string;
  verifier?: string;
  /** The browser binding of the browser that started it (login CSRF). */
  browser: string;
  expiresAt: number;
}

export function callbackUrl(baseUrl: string): string {
  return `${baseUrl}${runtimePaths.upstreamCallback}`;
}

/**
 * Signs the person in at an upstream OpenID Connect provider (a GenericOidcProvider connection chosen by `whr`):
 * a code request with nonce and PKCE, the authorization request riding along sealed in `state`; prompt, login_hint,
 * ui_locales and acr_values passed on. The answer comes back to `callback.idp`.
 */
export async function startUpstreamSignIn(flow: FlowContext, connection: AuthenticationConnection): Promise<Response> {
  const { ctx, c, request } = flow;
  const provider = await usableProvider(flow, connection, () => upstreamProvider(ctx, connection.id));
  const state: UpstreamState = {
    params: [...flow.params],
    connectionId: connection.id,
    nonce: randomSecret(16),
    browser: browserBinding(ctx, c),
    expiresAt: Date.now() + runtimeDefaults.interactionLifetime * 1000,
  };
  const url = new URL(provider.authorizationEndpoint);
  const query = url.searchParams;
  query.set('client_id', provider.clientId);
  query.set('response_type', 'code');
  query.set('redirect_uri', callbackUrl(ctx.baseUrl()));
  query.set('scope', provider.scopes.join(' '));
  query.set('nonce', state.nonce);
  if (provider.usePkce) {
    state.verifier = randomSecret(32);
    query.set('code_challenge', createHash('sha256').update(state.verifier).digest('base64url'));
    query.set('code_challenge_method', 'S256');
  }
  const prompt = request.prompt.filter((p) => p === 'none' || p === 'login' || p === 'consent');
  if (prompt.length > 0) query.set('prompt', prompt.join(' '));
  if (request.loginHint) query.set('login_hint', request.loginHint);
  if (request.uiLocales) query.set('ui_locales', request.uiLocales);
  if (request.acrValues.length > 0) query.set('acr_values', request.acrValues.join(' '));
  query.set('state', ctx.box.seal(JSON.stringify(state)));
  c.header('Cache-Control', 'no-store');
  return c.redirect(url.toString(), 302);
}
