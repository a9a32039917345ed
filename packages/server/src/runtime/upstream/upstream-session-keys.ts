import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { UpstreamSignIn } from './upstream-session.js';

/**
 * How a session names its upstream sign-in for the provider's back-channel logout (`sessions.upstream_subject_key`,
 * `sessions.upstream_session_key`): SHA-256 digests, so that neither the person nor the session at the provider is
 * kept in the clear.
 */
export interface UpstreamSessionKeys {
  /** The person at the provider: SAML NameID (WS-Federation too), OpenID Connect `sub`. */
  upstreamSubjectKey?: string;
  /** The session at the provider: SAML SessionIndex, OpenID Connect `sid`. */
  upstreamSessionKey?: string;
}

/** SHA-256 (lower-case hex) of the connection id, NUL and the value: one connection's values never meet another's. */
function digest(connectionId: string, value: string): string {
  return createHash('sha256').update(`${connectionId}\0${value}`, 'utf8').digest('hex');
}

/** The key of a person at the provider of the connection (NameID or `sub`). */
export function upstreamSubjectKey(connectionId: string, subject: string): string {
  return digest(connectionId, subject);
}

/** The key of a session at the provider of the connection (SessionIndex or `sid`). */
export function upstreamSessionKey(connectionId: string, session: string): string {
  return digest(connectionId, session);
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The person and the session at the provider an upstream OpenID Connect sign-in's ID token (verified) names. */
function idTokenNames(idToken: string | undefined): { subject?: string | undefined; session?: string | undefined } {
  if (!idToken) return {};
  try {
    const claims = decodeJwt(idToken);
    return { subject: text(claims.sub), session: text(claims.sid) };
  } catch {
    return {};
  }
}

/**
 * The keys of a session started by the upstream sign-in: of its NameID and SessionIndex (SAML 2.0, WS-Federation), or
 * of the `sub` and `sid` of the ID token (OpenID Connect, verified at sign-in). A value the sign-in lacks has no key.
 */
export function upstreamSessionKeys(signIn: UpstreamSignIn): UpstreamSessionKeys {
  const { subject, session } =
    signIn.protocol === 'oidc'
      ? idTokenNames(signIn.idToken)
      : { subject: text(signIn.nameId), session: text(signIn.sessionIndex) };
  return {
    ...(subject !== undefined ? { upstreamSubjectKey: upstreamSubjectKey(signIn.connectionId, subject) } : {}),
    ...(session !== undefined ? { upstreamSessionKey: upstreamSessionKey(signIn.connectionId, session) } : {}),
  };
}
