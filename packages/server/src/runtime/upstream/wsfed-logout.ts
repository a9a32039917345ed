import type { AppContext } from '../../context.js';
import { type LogoutContinuation, logoutReturnUrl, sealContinuation } from './logout-continuation.js';
import type { UpstreamSignIn } from './upstream-session.js';
import { wsfedRelyingParty, wsfedTokenService } from './wsfed-provider.js';

/**
 * The security token service's sign-out request (WS-Federation 1.2 §13.2.4, passive requestor profile): its sign-out
 * address (else its sign-on address) with wa=wsignout1.0, this service's realm, and wreply the return address with
 * the continuation sealed in its `state`.
 */
export async function wsfedLogoutUrl(
  ctx: AppContext,
  signIn: UpstreamSignIn,
  continuation: LogoutContinuation,
): Promise<string> {
  const sts = await wsfedTokenService(ctx, signIn.connectionId);
  const reply = new URL(logoutReturnUrl(ctx.baseUrl()));
  reply.searchParams.set('state', sealContinuation(ctx.box, continuation));
  const url = new URL(sts.signOutUrl ?? sts.signOnUrl);
  url.searchParams.set('wa', 'wsignout1.0');
  url.searchParams.set('wtrealm', wsfedRelyingParty(ctx.baseUrl()).realm);
  url.searchParams.set('wreply', reply.toString());
  return url.toString();
}
