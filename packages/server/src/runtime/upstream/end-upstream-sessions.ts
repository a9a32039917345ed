import { endUpstreamSessions } from '../../queries/upstream-sessions.js';
import { type BackchannelContext, type EndedSession, notifySessionsEnded } from '../backchannel-logout.js';
import { upstreamSessionKey, upstreamSubjectKey } from './upstream-session-keys.js';

/** Whom an upstream provider's back-channel logout signs out: the person there, sessions there, or both. */
export interface UpstreamLogoutTarget {
  /** The SAML NameID or the OpenID Connect `sub`. */
  subject?: string | undefined;
  /** SAML SessionIndex values or the OpenID Connect `sid`: any of them; none: every session of the subject. */
  sessions?: readonly string[] | undefined;
}

/**
 * Ends the live sessions here that were signed in through the connection for the target (with both named, a session
 * must match both), and tells the clients those sessions signed in to that asked for it (back-channel logout, not
 * awaited). A target naming neither ends nothing. Returns the sessions ended.
 */
export async function endUpstreamSignIns(
  ctx: BackchannelContext,
  connection: { connectionId: string; name: string },
  target: UpstreamLogoutTarget,
): Promise<EndedSession[]> {
  const { connectionId } = connection;
  const ended = await endUpstreamSessions(ctx.db, {
    subjectKey: target.subject !== undefined ? upstreamSubjectKey(connectionId, target.subject) : undefined,
    sessionKeys: target.sessions?.map((session) => upstreamSessionKey(connectionId, session)),
  });
  ctx.logger.info('upstream back-channel logout', { connection: connection.name, sessionsEnded: ended.length });
  notifySessionsEnded(ctx, ended);
  return ended;
}
