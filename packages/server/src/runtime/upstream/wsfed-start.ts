import type { AuthenticationConnection } from '../authentication-connections.js';
import type { FlowContext } from '../authorize/flow.js';
import { browserBinding } from '../csrf.js';
import { runtimeDefaults } from '../defaults.js';
import { LoginRequired } from '../oauth-errors.js';
import type { SentSignIn } from './federation-reply.js';
import { usableProvider } from './usable-provider.js';
import { wsfedRelyingParty, wsfedTokenService } from './wsfed-provider.js';

/** What the WS-Federation round trip carries in its wctx, sealed: the request to go on with, and the checks. */
export interface WsFedContext extends SentSignIn {
  kind: 'wsfed-context';
}

/**
 * Signs the person in at an upstream WS-Federation security token service (a WsFederation connection chosen by
 * `whr`), passive requestor profile: the browser is sent to its sign-on address with wa=wsignin1.0, this service's
 * realm and reply address, and the authorization request riding along sealed in wctx; prompt=login asks for a fresh
 * sign-in (wfresh=0), acr_values one method (wauth). The token is posted to the reply address.
 */
export async function startWsFedSignIn(flow: FlowContext, connection: AuthenticationConnection): Promise<Response> {
  const { ctx, c, request } = flow;
  // WS-Federation has no way to ask for a sign-in without user interaction: the service would show its pages, so
  // prompt=none is answered here and now, without going upstream.
  if (request.prompt.includes('none')) throw new LoginRequired();
  const sts = await usableProvider(flow, connection, () => wsfedTokenService(ctx, connection.id));
  const context: WsFedContext = {
    kind: 'wsfed-context',
    params: [...flow.params],
    connectionId: sts.connectionId,
    browser: browserBinding(ctx, c),
    expiresAt: Date.now() + runtimeDefaults.interactionLifetime * 1000,
  };
  const rp = wsfedRelyingParty(ctx.baseUrl());
  const url = new URL(sts.signOnUrl);
  const query = url.searchParams;
  query.set('wa', 'wsignin1.0');
  query.set('wtrealm', rp.realm);
  query.set('wreply', rp.replyUrl);
  query.set('wct', new Date().toISOString());
  if (request.prompt.includes('login')) query.set('wfresh', '0');
  // wauth names one authentication method: the client's first acr value, when it gave any.
  if (request.acrValues.length > 0) query.set('wauth', request.acrValues[0]);
  query.set('wctx', ctx.box.seal(JSON.stringify(context)));
  c.header('Cache-Control', 'no-store');
  return c.redirect(url.toString(), 302);
}
