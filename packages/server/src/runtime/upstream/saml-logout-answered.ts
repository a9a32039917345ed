import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { findRelayState } from '../../queries/saml-relay-states.js';
import { errorPage } from '../authorize/error-page.js';
import { logUpstreamError } from '../oauth-log.js';
import { openContinuation } from './logout-continuation.js';
import { finishLogout } from './logout-finish.js';
import { logoutNotStartedHere } from './logout-return-route.js';
import { UpstreamError } from './provider.js';
import {
  type SamlIdentityProvider,
  type SamlServiceProvider,
  type SentRequest,
  samlIdentityProvider,
  samlServiceProvider,
} from './saml-provider.js';

/** Checks the provider's LogoutResponse to `sent`; throws UpstreamError when it does not verify. */
export type LogoutResponseCheck = (
  idp: SamlIdentityProvider,
  sp: SamlServiceProvider,
  sent: SentRequest,
) => Promise<void> | void;

/**
 * The identity provider's LogoutResponse to a LogoutRequest of this service, by either binding: the logout kept
 * under the RelayState (unknown or expired → the 400 page), the response checked, and the logout finished as it
 * would have without the provider. The local session ended before the browser left, so a response that does not
 * verify is logged (event 4111) and the logout finishes all the same, the signed-out page saying the provider's
 * sign-out could not be confirmed.
 */
export async function logoutAnswered(
  ctx: AppContext,
  c: Context,
  relayState: string | null | undefined,
  check: LogoutResponseCheck,
  status?: 302 | 303,
): Promise<Response> {
  const sealed = relayState && relayState.length <= 80 ? await findRelayState(ctx.db, relayState) : undefined;
  const continuation = openContinuation(ctx.box, sealed, 'saml-logout');
  if (!continuation?.request) return errorPage(ctx, c, logoutNotStartedHere(), undefined);
  let connection = continuation.connectionId;
  let upstreamUnconfirmed = false;
  try {
    const idp = await samlIdentityProvider(ctx, continuation.connectionId);
    connection = idp.name;
    await check(idp, await samlServiceProvider(ctx), continuation.request);
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    logUpstreamError(ctx, c, { error: error.error, description: error.description, connection });
    upstreamUnconfirmed = true;
  }
  return finishLogout(ctx, c, continuation, { upstreamUnconfirmed, ...(status ? { status } : {}) });
}
