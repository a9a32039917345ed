import type { AppContext } from '../../context.js';
import { type LogoutContinuation, logoutReturnUrl, sealContinuation } from './logout-continuation.js';
import { upstreamProvider } from './provider.js';
import type { UpstreamSignIn } from './upstream-session.js';

/**
 * The provider's RP-Initiated Logout request (its discovery document's end_session_endpoint): the upstream ID token
 * as id_token_hint, this service's client id, the return address, and the continuation sealed in `state`.
 * Undefined when the provider names no end_session_endpoint (the logout finishes here).
 */
export async function oidcLogoutUrl(
  ctx: AppContext,
  signIn: UpstreamSignIn,
  continuation: LogoutContinuation,
): Promise<string | undefined> {
  const provider = await upstreamProvider(ctx, signIn.connectionId);
  if (!provider.endSessionEndpoint) return undefined;
  const url = new URL(provider.endSessionEndpoint);
  const query = url.searchParams;
  if (signIn.idToken) query.set('id_token_hint', signIn.idToken);
  query.set('client_id', provider.clientId);
  query.set('post_logout_redirect_uri', logoutReturnUrl(ctx.baseUrl()));
  if (continuation.uiLocales) query.set('ui_locales', continuation.uiLocales);
  query.set('state', sealContinuation(ctx.box, continuation));
  return url.toString();
}
