import type { Context } from 'hono';
import type { AppContext } from '../context.js';
import type { EndedSession } from '../queries/action-tokens.js';
import { issuerOf } from './access-token.js';
import { findClient, httpAddress, type OAuthClient } from './clients.js';
import { runtimeDefaults } from './defaults.js';
import { sendPage, textsFor } from './pages/render.js';
import { SigningOutPage } from './pages/signing-out.js';

/** What front-channel logout needs: the clients, the issuer, and the page settings. */
export type FrontchannelContext = Pick<AppContext, 'db' | 'baseUrl'>;

/**
 * What a browser logout carries to its finish for front-channel logout (sealed, when it goes through an upstream
 * provider): the session that ended here, and those of its clients that have a front-channel logout address.
 */
export interface FrontchannelLogout {
  sessionId: string;
  clientIds: string[];
}

/** The client's front-channel logout address (an http or https address); undefined when it has none. */
export function frontchannelLogoutUriOf(client: OAuthClient): string | undefined {
  return httpAddress(client.configuration.frontchannelLogoutUri);
}

/**
 * OpenID Connect Front-Channel Logout 1.0 §2, §4: the address a client's iframe loads: its front-channel logout
 * address with its own query kept as it is, and `iss` (the issuer) and `sid` (the session, the `sid` of the client's
 * ID tokens) added when `session` is given (the client's `frontchannelLogoutSessionRequired`). A fragment is dropped.
 */
export function frontchannelLogoutAddress(uri: string, session?: { issuer: string; sessionId: string }): string {
  const url = new URL(uri);
  url.hash = '';
  if (session) {
    const added = new URLSearchParams({ iss: session.issuer, sid: session.sessionId }).toString();
    url.search = url.search.length > 1 ? `${url.search.slice(1)}&${added}` : added;
  }
  return url.toString();
}

/**
 * The ended session's clients that have a front-channel logout address, in the order they were signed in to; undefined
 * when no session ended or none of its clients has one (the logout then finishes as it always did).
 */
export async function frontchannelLogoutOf(
  ctx: FrontchannelContext,
  ended: EndedSession | undefined,
): Promise<FrontchannelLogout | undefined> {
  if (!ended || ended.clients.length === 0) return undefined;
  const clients = await Promise.all([...new Set(ended.clients)].map((clientId) => findClient(ctx.db, clientId)));
  const clientIds = clients
    .filter((client): client is OAuthClient => client !== undefined && frontchannelLogoutUriOf(client) !== undefined)
    .map((client) => client.clientId);
  return clientIds.length > 0 ? { sessionId: ended.id, clientIds } : undefined;
}

/**
 * The addresses the browser loads for the logout's clients, in order; a client removed, disabled or without an
 * address since the session ended is left out. None without a logout (or with one that is not well formed).
 */
export async function frontchannelFrames(
  ctx: FrontchannelContext,
  logout: FrontchannelLogout | undefined,
): Promise<string[]> {
  if (typeof logout?.sessionId !== 'string' || !Array.isArray(logout.clientIds)) return [];
  const { sessionId } = logout;
  const issuer = issuerOf(ctx);
  const clientIds = logout.clientIds.filter((clientId) => typeof clientId === 'string');
  const clients = await Promise.all(clientIds.map((clientId) => findClient(ctx.db, clientId)));
  return clients.flatMap((client) => {
    const uri = client ? frontchannelLogoutUriOf(client) : undefined;
    if (!client || !uri) return [];
    const withSession = client.configuration.frontchannelLogoutSessionRequired;
    return [frontchannelLogoutAddress(uri, withSession ? { issuer, sessionId } : undefined)];
  });
}

/**
 * Sends the signing-out page: the frames load the addresses, and the browser goes on to `next` after
 * `runtimeDefaults.frontchannelLogoutDelay` seconds. Its CSP lets frames load from the addresses' origins only; it is
 * never cached.
 */
export async function sendSigningOutPage(
  ctx: FrontchannelContext,
  c: Context,
  input: { frames: readonly string[]; next: string; uiLocales?: string | undefined },
): Promise<Response> {
  const t = await textsFor(ctx, c, input.uiLocales);
  const delay = runtimeDefaults.frontchannelLogoutDelay;
  const page = SigningOutPage({ t, frames: input.frames, next: input.next, delay });
  return sendPage(ctx, c, page, { frameTargets: input.frames });
}
