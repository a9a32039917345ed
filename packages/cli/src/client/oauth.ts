import { setTimeout as sleep } from 'node:timers/promises';
import { CliError, exitCodes } from '../errors.js';
import { buildUrl, send, type Trace } from './http.js';

export const tokenPath = '/runtime/oauth2/token.idp';
export const deviceAuthorizationPath = '/runtime/oauth2/deviceauthorization.idp';
export const revocationPath = '/runtime/oauth2/revoke.idp';
export const cliClientId = 'idsvc-cli';
/** The scope of the admin API, plus a refresh token for people. */
export const adminScope = 'identify*scim';
export const deviceCodeGrant = 'urn:ietf:params:oauth:grant-type:device_code';

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
}

/** An error answer of the token endpoint (RFC 6749 §5.2). */
export class OAuthCallError extends CliError {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string | undefined,
  ) {
    const exitCode = [
      'invalid_grant',
      'invalid_client',
      'unauthorized_client',
      'access_denied',
      'expired_token',
    ].includes(error)
      ? exitCodes.auth
      : status >= 500
        ? exitCodes.failure
        : exitCodes.invalid;
    super(`${error}${description ? `: ${description}` : ''}`, exitCode);
    this.name = 'OAuthCallError';
  }
}

async function postForm(baseUrl: string, path: string, form: Record<string, string>, trace?: Trace) {
  const response = await send(
    'POST',
    buildUrl(baseUrl, path),
    { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': 'idsvc-cli' },
    new URLSearchParams(form).toString(),
    trace,
  );
  const body = (typeof response.body === 'object' && response.body !== null ? response.body : {}) as Record<
    string,
    unknown
  >;
  return { status: response.status, body };
}

function oauthError(status: number, body: Record<string, unknown>, what: string): CliError {
  if (typeof body.error === 'string') {
    return new OAuthCallError(
      status,
      body.error,
      typeof body.error_description === 'string' ? body.error_description : undefined,
    );
  }
  if (status === 404) return new CliError(`the server has no ${what} endpoint (404)`, exitCodes.notFound);
  return new CliError(`${what} failed: the server answered ${status}`, exitCodes.failure);
}

/** Posts a grant to the token endpoint; an error answer throws an OAuthCallError. */
export async function requestToken(baseUrl: string, form: Record<string, string>, trace?: Trace) {
  const { status, body } = await postForm(baseUrl, tokenPath, form, trace);
  if (status !== 200 || typeof body.access_token !== 'string') throw oauthError(status, body, 'token');
  return body as unknown as TokenResponse;
}

export function passwordGrant(baseUrl: string, userName: string, password: string, trace?: Trace) {
  return requestToken(
    baseUrl,
    {
      grant_type: 'password',
      client_id: cliClientId,
      username: userName,
      password,
      scope: `${adminScope} offline_access`,
    },
    trace,
  );
}

export function clientCredentialsGrant(baseUrl: string, clientId: string, clientSecret: string, trace?: Trace) {
  return requestToken(
    baseUrl,
    // no scope: the admin API goes by the client's REST API role, and a client need not allow identify*scim
    { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
    trace,
  );
}

export function refreshGrant(baseUrl: string, clientId: string, refreshToken: string, trace?: Trace) {
  return requestToken(
    baseUrl,
    { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken },
    trace,
  );
}

/** RFC 7009: asks the server to forget a refresh token. Best effort: false when it could not. */
export async function revokeToken(baseUrl: string, clientId: string, token: string, trace?: Trace) {
  try {
    const { status } = await postForm(
      baseUrl,
      revocationPath,
      { token, token_type_hint: 'refresh_token', client_id: clientId },
      trace,
    );
    return status === 200;
  } catch {
    return false;
  }
}

/** RFC 8628 §3.2: the device authorization response. */
export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

export async function startDeviceAuthorization(baseUrl: string, clientId: string, trace?: Trace) {
  const { status, body } = await postForm(
    baseUrl,
    deviceAuthorizationPath,
    { client_id: clientId, scope: `${adminScope} offline_access` },
    trace,
  );
  if (status !== 200 || typeof body.device_code !== 'string' || typeof body.user_code !== 'string') {
    throw oauthError(status, body, 'device authorization');
  }
  return body as unknown as DeviceAuthorization;
}

/**
 * RFC 8628 §3.4–3.5: polls the token endpoint until the person approves or denies, or the code expires. Waits
 * `interval` seconds (default 5) between polls and 5 s more after each `slow_down`.
 */
export async function pollDeviceToken(
  baseUrl: string,
  clientId: string,
  authorization: DeviceAuthorization,
  trace?: Trace,
): Promise<TokenResponse> {
  let interval = Math.max(1, authorization.interval ?? 5);
  const deadline = Date.now() + authorization.expires_in * 1000;
  for (;;) {
    await sleep(interval * 1000);
    if (Date.now() > deadline) throw new CliError('the device code expired before it was approved', exitCodes.auth);
    try {
      return await requestToken(
        baseUrl,
        { grant_type: deviceCodeGrant, device_code: authorization.device_code, client_id: clientId },
        trace,
      );
    } catch (error) {
      if (!(error instanceof OAuthCallError)) throw error;
      if (error.error === 'authorization_pending') continue;
      if (error.error === 'slow_down') {
        interval += 5;
        continue;
      }
      if (error.error === 'access_denied') throw new CliError('the sign-in was denied', exitCodes.auth);
      if (error.error === 'expired_token') throw new CliError('the device code expired', exitCodes.auth);
      throw error;
    }
  }
}

/** The payload of a JWT, unverified (for display and expiry only); undefined when it is not a JWT. */
export function jwtPayload(token: string): Record<string, unknown> | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
