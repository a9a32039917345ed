import type { SecretBox } from '../../crypto/secret-box.js';
import { runtimeDefaults, runtimePaths } from '../defaults.js';
import type { FrontchannelLogout } from '../frontchannel-logout.js';
import type { SentRequest } from './saml-provider.js';

/**
 * How a logout finishes here: at the client's registered post-logout address with its state, or the signed-out page;
 * first in the browser at the front-channel logout addresses of the ended session's clients, when they have any.
 */
export interface LogoutFinish {
  /** The post-logout address (checked as registered for the client); none: the signed-out page. */
  returnTo?: string | undefined;
  state?: string | undefined;
  uiLocales?: string | undefined;
  /** The session that ended here and its clients that take front-channel logout. */
  frontchannel?: FrontchannelLogout | undefined;
}

/**
 * What a logout carries on its way through the upstream provider, sealed: how it finishes here once the provider
 * sends the browser back. `upstream-logout` travels in the return address (OpenID Connect state, WS-Federation
 * wreply); `saml-logout` is kept under the RelayState with the LogoutRequest its LogoutResponse must answer.
 */
export interface LogoutContinuation extends LogoutFinish {
  kind: 'upstream-logout' | 'saml-logout';
  connectionId: string;
  /** The LogoutRequest sent (SAML 2.0). */
  request?: SentRequest;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** A continuation of the finish, valid for the interaction lifetime from `now`. */
export function newContinuation(
  kind: LogoutContinuation['kind'],
  connectionId: string,
  finish: LogoutFinish,
  now = Date.now(),
): LogoutContinuation {
  return {
    kind,
    connectionId,
    ...(finish.returnTo ? { returnTo: finish.returnTo } : {}),
    ...(finish.state ? { state: finish.state } : {}),
    ...(finish.uiLocales ? { uiLocales: finish.uiLocales } : {}),
    ...(finish.frontchannel ? { frontchannel: finish.frontchannel } : {}),
    expiresAt: now + runtimeDefaults.interactionLifetime * 1000,
  };
}

export function sealContinuation(box: SecretBox, continuation: LogoutContinuation): string {
  return box.seal(JSON.stringify(continuation));
}

/** The continuation sealed by this service, of `kind` and not expired at `now`; else undefined. */
export function openContinuation(
  box: SecretBox,
  sealed: string | null | undefined,
  kind: LogoutContinuation['kind'],
  now = Date.now(),
): LogoutContinuation | undefined {
  if (!sealed || sealed.length > 16_384) return undefined;
  let value: LogoutContinuation;
  try {
    value = JSON.parse(box.open(sealed)) as LogoutContinuation;
  } catch {
    return undefined;
  }
  if (value?.kind !== kind || typeof value.expiresAt !== 'number' || value.expiresAt <= now) return undefined;
  return value;
}

/**
 * Where an upstream OpenID Connect provider or WS-Federation service sends the browser back after signing out (the
 * post-logout address to register at an OpenID Connect provider).
 */
export function logoutReturnUrl(baseUrl: string): string {
  return `${baseUrl}${runtimePaths.upstreamLogoutReturn}`;
}
