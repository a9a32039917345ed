import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { connections } from '../../db/schema/index.js';
import { logUpstreamError } from '../oauth-log.js';
import { type LogoutContinuation, type LogoutFinish, newContinuation } from './logout-continuation.js';
import { oidcLogoutUrl } from './oidc-logout.js';
import { UpstreamError, upstreamProvider } from './provider.js';
import { samlLogoutUrl } from './saml-logout.js';
import { samlIdentityProvider } from './saml-provider.js';
import type { UpstreamSignIn } from './upstream-session.js';
import { wsfedLogoutUrl } from './wsfed-logout.js';
import { wsfedTokenService } from './wsfed-provider.js';

/** Where a logout goes after the local session was ended: on to the upstream provider, or to its finish here. */
export interface UpstreamLogout {
  /** The provider's sign-out address; none: the logout finishes here. */
  redirect?: string;
  /** The provider could not be used: its sign-out could not be confirmed. */
  upstreamUnconfirmed?: boolean;
}

function logoutUrl(ctx: AppContext, signIn: UpstreamSignIn, continuation: LogoutContinuation) {
  switch (signIn.protocol) {
    case 'oidc':
      return oidcLogoutUrl(ctx, signIn, continuation);
    case 'saml':
      return samlLogoutUrl(ctx, signIn, continuation);
    case 'wsfed':
      return wsfedLogoutUrl(ctx, signIn, continuation);
  }
}

/**
 * After the local session was ended: the address of the upstream provider's sign-out for the session's upstream
 * sign-in (for a SAML provider whose single logout service takes HTTP-POST only, the address here of the page that
 * posts the LogoutRequest), carrying how the logout finishes here (sealed, for the interaction lifetime). Finishes here when the
 * connection is gone or disabled or its provider has no logout address; when the provider cannot be used, the
 * failure is logged as event 4111 and the logout finishes here, the provider's sign-out unconfirmed.
 */
export async function upstreamLogout(
  ctx: AppContext,
  c: Context,
  signIn: UpstreamSignIn,
  finish: LogoutFinish,
): Promise<UpstreamLogout> {
  const [row] = await ctx.db
    .select({ name: connections.name, enabled: connections.enabled })
    .from(connections)
    .where(eq(connections.id, signIn.connectionId));
  if (!row?.enabled) return {};
  try {
    const redirect = await logoutUrl(ctx, signIn, newContinuation('upstream-logout', signIn.connectionId, finish));
    return redirect ? { redirect } : {};
  } catch (error) {
    const failure = error instanceof UpstreamError ? error : new UpstreamError('server_error', String(error));
    logUpstreamError(ctx, c, { error: failure.error, description: failure.description, connection: row.name });
    return { upstreamUnconfirmed: true };
  }
}

/**
 * The address the upstream sign-out of the sign-in goes to, if it has one and its provider can be used: a logout
 * confirmation form must be allowed to lead there (CSP form-action applies to the redirect after the post).
 */
export async function upstreamLogoutTarget(
  ctx: AppContext,
  signIn: UpstreamSignIn | undefined,
): Promise<string | undefined> {
  try {
    switch (signIn?.protocol) {
      case 'oidc':
        return (await upstreamProvider(ctx, signIn.connectionId)).endSessionEndpoint;
      case 'saml':
        return (await samlIdentityProvider(ctx, signIn.connectionId)).sloUrl;
      case 'wsfed': {
        const sts = await wsfedTokenService(ctx, signIn.connectionId);
        return sts.signOutUrl ?? sts.signOnUrl;
      }
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
