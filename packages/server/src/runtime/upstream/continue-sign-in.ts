import type { Context } from 'hono';
import { findUserForLogin } from '../../auth/lockout.js';
import type { AppContext } from '../../context.js';
import { runAuthorization } from '../authorize/flow.js';
import { runtimeDefaults } from '../defaults.js';
import { AccessDenied } from '../oauth-errors.js';
import { logOAuthError } from '../oauth-log.js';
import { findSession, sessionIdOf, startSession } from '../session.js';
import { sealUpstreamSignIn, type UpstreamSignIn } from './upstream-session.js';
import { upstreamSessionKeys } from './upstream-session-keys.js';

/** The person an upstream identity provider vouched for. */
export interface UpstreamIdentity {
  /** The verified e-mail address the local user is matched by. */
  email?: string | undefined;
  /** The authentication class the provider reported, if any. */
  acr?: string | undefined;
  /** The connection's name (for the log). */
  connection: string;
  /** The sign-in at the provider, kept with the session so that logout here goes on to the provider. */
  upstream?: UpstreamSignIn | undefined;
}

/**
 * After an upstream provider signed the person in: the local user is the active, unlocked one whose e-mail address
 * is the provider's (else access_denied to the client); a federated session (`amr` fed) is started, remembering the
 * upstream sign-in sealed and the digests its provider's back-channel logout finds it by, and the authorization
 * request goes on.
 */
export async function continueUpstreamSignIn(
  ctx: AppContext,
  c: Context,
  params: URLSearchParams,
  identity: UpstreamIdentity,
): Promise<Response> {
  const { email } = identity;
  const user = email ? await findUserForLogin(ctx.db, email) : undefined;
  if (!user?.active || user.locked || user.email?.toLowerCase() !== email?.toLowerCase()) {
    const denied = new AccessDenied("no account here matches the identity provider's user");
    logOAuthError(ctx, c, { error: denied.error, description: denied.description, connection: identity.connection });
    return runAuthorization(ctx, c, params, { failure: denied });
  }
  const acr = identity.acr ?? runtimeDefaults.passwordAcr;
  const sessionId = await startSession(ctx, c, {
    userId: user.id,
    acr,
    amr: ['fed'],
    replaces: sessionIdOf(c),
    ...(identity.upstream
      ? { upstream: sealUpstreamSignIn(ctx.box, identity.upstream), ...upstreamSessionKeys(identity.upstream) }
      : {}),
  });
  return runAuthorization(ctx, c, params, {
    session: await findSession(ctx.db, sessionId),
    authenticatedSession: sessionId,
  });
}
