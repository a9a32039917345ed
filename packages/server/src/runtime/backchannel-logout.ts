import type { AppContext } from '../context.js';
import type { EndedSession } from '../queries/action-tokens.js';
import { loadUser, subjectFor, type UserWithClaims } from './claims.js';
import { findClient, httpAddress, type OAuthClient } from './clients.js';
import { runtimeDefaults } from './defaults.js';
import { issueLogoutToken } from './logout-token.js';

export type { EndedSession };

/** What back-channel logout needs: the clients, their signing keys, the issuer and the log. */
export type BackchannelContext = Pick<AppContext, 'db' | 'keys' | 'box' | 'baseUrl' | 'logger'>;

/** How the post of a logout token to one client went; `delivered` when it answered 200 or 204. */
export interface LogoutDelivery {
  clientId: string;
  delivered: boolean;
  /** `HTTP <status>`, `no answer within <n> s` or `network error (<code>)`. */
  outcome: string;
}

/**
 * The client's back-channel logout address when it asks for the notification (`enableSessionStatusChangeNotification`
 * and a `backchannelLogoutUri`, an http or https address); undefined otherwise.
 */
export function backchannelLogoutUriOf(client: OAuthClient): string | undefined {
  const { enableSessionStatusChangeNotification: enabled, backchannelLogoutUri: uri } = client.configuration;
  return enabled === true ? httpAddress(uri) : undefined;
}

/**
 * OpenID Connect Back-Channel Logout 1.0: tells every client that an ended session signed the person in to, and
 * that asks for it, that the session is over. Started and not awaited (the person's logout never waits on a
 * client); it never rejects: what fails is logged. When clients were told, one record names the users and the
 * clients, once every post has an outcome.
 */
export function notifySessionsEnded(ctx: BackchannelContext, ended: readonly (EndedSession | undefined)[]): void {
  const withClients = ended.filter((session): session is EndedSession => (session?.clients.length ?? 0) > 0);
  if (withClients.length === 0) return;
  deliverLogoutTokens(ctx, withClients)
    .then((deliveries) => {
      if (deliveries.length === 0) return;
      ctx.logger.info('back-channel logout done', {
        userIds: [...new Set(withClients.map((session) => session.userId))],
        clients: deliveries.map((delivery) => delivery.clientId),
        delivered: deliveries.filter((delivery) => delivery.delivered).length,
      });
    })
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      ctx.logger.error('back-channel logout failed', { error: message });
    });
}

/**
 * Posts a logout token to each notified client of each session, all at once, and resolves when every post has
 * an outcome (§2.5). A client not found (unknown or disabled) or not asking for the notification is left out. A
 * post that is not answered 200 or 204 is logged as a warning naming the client and the outcome (never the token).
 */
export async function deliverLogoutTokens(
  ctx: BackchannelContext,
  ended: readonly EndedSession[],
): Promise<LogoutDelivery[]> {
  const users = new Map<string, Promise<UserWithClaims | undefined>>();
  const userOf = (id: string) => {
    let user = users.get(id);
    if (!user) {
      user = loadUser(ctx.db, id);
      users.set(id, user);
    }
    return user;
  };
  const posts = ended.flatMap((session) =>
    [...new Set(session.clients)].map((clientId) => notifyClient(ctx, session, clientId, userOf)),
  );
  const outcomes = await Promise.all(posts);
  return outcomes.filter((outcome): outcome is LogoutDelivery => outcome !== undefined);
}

async function notifyClient(
  ctx: BackchannelContext,
  session: EndedSession,
  clientId: string,
  userOf: (id: string) => Promise<UserWithClaims | undefined>,
): Promise<LogoutDelivery | undefined> {
  let delivery: LogoutDelivery;
  try {
    const client = await findClient(ctx.db, clientId);
    const uri = client ? backchannelLogoutUriOf(client) : undefined;
    if (!client || !uri) return undefined;
    const who = await userOf(session.userId);
    const subject = who ? subjectFor(client, who) : undefined;
    const token = await issueLogoutToken(ctx, client, { subject, sessionId: session.id });
    delivery = { clientId, ...(await postLogoutToken(uri, token)) };
  } catch (error) {
    delivery = { clientId, delivered: false, outcome: `not sent (${error instanceof Error ? error.message : error})` };
  }
  if (delivery.delivered) ctx.logger.debug('back-channel logout delivered', { clientId });
  else ctx.logger.warn('back-channel logout not delivered', { clientId, outcome: delivery.outcome });
  return delivery;
}

/**
 * §2.5: `POST` of `logout_token` as a form to the client's address; redirects are not followed, and the client has
 * `timeout` seconds to answer (`runtimeDefaults.backchannelLogoutTimeout`).
 */
export async function postLogoutToken(
  uri: string,
  token: string,
  timeout: number = runtimeDefaults.backchannelLogoutTimeout,
): Promise<Omit<LogoutDelivery, 'clientId'>> {
  try {
    const response = await fetch(uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: token }).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeout * 1000),
    });
    await response.body?.cancel().catch(() => {});
    return { delivered: response.status === 200 || response.status === 204, outcome: `HTTP ${response.status}` };
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return { delivered: false, outcome: `no answer within ${timeout} s` };
    }
    return { delivered: false, outcome: `network error (${causeOf(error)})` };
  }
}

/** The code or message of a failed fetch's cause (`ECONNREFUSED`…). */
function causeOf(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
