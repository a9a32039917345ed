import type { Context } from 'hono';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppContext } from '../../context.js';
import { errorPage } from '../authorize/error-page.js';
import { runAuthorization } from '../authorize/flow.js';
import { PageError } from '../authorize/request.js';
import { runtimeDefaults, runtimePaths } from '../defaults.js';
import { OAuthError } from '../oauth-errors.js';
import { logUpstreamError } from '../oauth-log.js';
import { continueUpstreamSignIn } from './continue-sign-in.js';
import { redeemCode, UpstreamError, upstreamProvider } from './provider.js';
import { callbackUrl, type UpstreamState } from './start.js';

/** Error codes an upstream may answer that mean the same to our client; anything else becomes access_denied. */
const passedOn = new Set([
  'access_denied',
  'login_required',
  'consent_required',
  'interaction_required',
  'account_selection_required',
  'temporarily_unavailable',
]);

function openState(ctx: AppContext, c: Context, sealed: string | undefined): UpstreamState | undefined {
  if (!sealed || sealed.length > 16_384) return undefined;
  try {
    const state = JSON.parse(ctx.box.open(sealed)) as UpstreamState;
    const browser = getCookie(c, runtimeDefaults.browserCookie);
    if (state.expiresAt <= Date.now() || !browser || browser !== state.browser) return undefined;
    return state;
  } catch {
    return undefined;
  }
}

/**
 * `GET /runtime/oauth2/callback.idp`: the upstream provider's answer. Steps: open the sealed state (and check it
 * belongs to this browser), take an error answer (log event 4111, the client gets the error), else redeem the code
 * and verify the ID token (a failure: event 4111), find the local user by the verified e-mail address, start the
 * session and go on with the authorization request.
 */
export function upstreamCallbackRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.get(runtimePaths.upstreamCallback, async (c) => {
    const state = openState(ctx, c, c.req.query('state'));
    if (!state)
      return errorPage(
        ctx,
        c,
        new PageError('invalid_request', 'the sign-in has expired or was not started here'),
        undefined,
      );
    const params = new URLSearchParams(state.params);
    const fail = (error: OAuthError) => runAuthorization(ctx, c, params, { failure: error });
    const upstreamError = c.req.query('error');
    let connection = state.connectionId;
    try {
      const provider = await upstreamProvider(ctx, state.connectionId);
      connection = provider.name;
      if (upstreamError !== undefined) {
        throw new UpstreamError(
          upstreamError,
          c.req.query('error_description') ?? 'the identity provider refused the sign-in',
        );
      }
      const { claims, idToken } = await redeemCode(provider, {
        code: c.req.query('code') ?? '',
        redirectUri: callbackUrl(ctx.baseUrl()),
        verifier: state.verifier,
        nonce: state.nonce,
      });
      return await continueUpstreamSignIn(ctx, c, params, {
        email: typeof claims.email === 'string' ? claims.email : undefined,
        acr: typeof claims.acr === 'string' ? claims.acr : undefined,
        connection: provider.name,
        upstream: { connectionId: provider.connectionId, protocol: 'oidc', idToken },
      });
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      logUpstreamError(ctx, c, { error: error.error, description: error.description, connection });
      const code = passedOn.has(error.error) ? error.error : 'access_denied';
      return fail(new OAuthError(code, 400, `the identity provider answered ${error.error}`));
    }
  });
  return app;
}
