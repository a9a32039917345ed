import { type Context, Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { runtimePaths } from '../defaults.js';
import { readForm } from '../form.js';
import { OAuthError } from '../oauth-errors.js';
import { logUpstreamError } from '../oauth-log.js';
import { endUpstreamSignIns } from './end-upstream-sessions.js';
import { LogoutTokenRefused, verifyLogoutToken } from './oidc-logout-token-verify.js';

/** The logout token of the request: a form (each parameter once) holding `logout_token`. Throws LogoutTokenRefused. */
async function logoutTokenOf(c: Context): Promise<string> {
  let form: URLSearchParams;
  try {
    form = await readForm(c, { unique: true });
  } catch (error) {
    if (error instanceof OAuthError) throw new LogoutTokenRefused(error.description, '');
    throw error;
  }
  const token = form.get('logout_token');
  if (!token) throw new LogoutTokenRefused('the request holds no logout_token', '');
  return token;
}

/**
 * `POST /runtime/oauth2/backchannel-logout.idp`: OpenID Connect Back-Channel Logout 1.0 from an upstream provider
 * (a GenericOidcProvider connection), server to server. The logout token must verify (oidc-logout-token-verify.ts);
 * then every live session here signed in through that connection with the token's `sid` ends (with its `sub` too,
 * when the token names both), or, when it names only `sub`, every live session of that person there. The clients
 * those sessions signed in to that asked for back-channel logout are told in turn. 200 (also when no session
 * matched); a token that does not verify: 400 `invalid_request` with the reason, event 4111, nothing ended. Never
 * cached (§2.8).
 */
export function upstreamBackchannelLogoutRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.upstreamBackchannelLogout, async (c) => {
    c.header('Cache-Control', 'no-store');
    let verified: Awaited<ReturnType<typeof verifyLogoutToken>>;
    try {
      verified = await verifyLogoutToken(ctx, await logoutTokenOf(c));
    } catch (error) {
      if (!(error instanceof LogoutTokenRefused)) throw error;
      logUpstreamError(ctx, c, { error: error.error, description: error.description, connection: error.connection });
      return c.json({ error: error.error, error_description: error.description }, 400);
    }
    const { provider, subject, session } = verified;
    await endUpstreamSignIns(ctx, provider, { subject, sessions: session !== undefined ? [session] : undefined });
    return c.body(null, 200);
  });
  return app;
}
