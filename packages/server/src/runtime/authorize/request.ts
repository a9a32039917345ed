import type { OAuthClient } from '../clients.js';
import { runtimeDefaults } from '../defaults.js';
import {
  InvalidRequest,
  InvalidScope,
  RequestNotSupported,
  RequestUriNotSupported,
  UnauthorizedClient,
  UnsupportedResponseType,
} from '../oauth-errors.js';
import { grantScopes } from '../scopes.js';

export type ResponseMode = 'query' | 'fragment' | 'form_post';

/** The response types served (OpenID Connect Core §3, OAuth 2.0 Multiple Response Types), words sorted. */
export const responseTypes = [
  'code',
  'code id_token',
  'code token',
  'code id_token token',
  'id_token',
  'id_token token',
];
const responseModes: readonly string[] = ['query', 'fragment', 'form_post'];
const promptValues: readonly string[] = ['none', 'login', 'consent', 'select_account'];

/** Where and how the authorization response (or an error) goes: known once the redirect address is trusted. */
export interface ResponseTarget {
  redirectUri: string;
  responseMode: ResponseMode;
  state?: string;
}

/** A validated authorization request. */
export interface AuthorizationRequest extends ResponseTarget {
  clientId: string;
  /** Words sorted: `code`, `code id_token`, `code id_token token`, `code token`, `id_token`, `id_token token`. */
  responseType: string;
  scopes: string[];
  nonce?: string;
  codeChallenge?: string;
  prompt: string[];
  maxAge?: number;
  loginHint?: string;
  idTokenHint?: string;
  acrValues: string[];
  uiLocales?: string;
  whr?: string;
}

/** An error shown on a page, never sent to a redirect address (the address is unknown or not trusted). */
export class PageError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'PageError';
  }
}

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Reads one parameter; a parameter given twice is malformed (RFC 6749 §3.1). */
export function param(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new InvalidRequest(`${name} is given more than once`);
  return values[0] === '' ? undefined : values[0];
}

/**
 * The redirect address: given exactly as registered (or the only registered one when none is given); plain http
 * only when the client allows it or it points at the loopback interface. Anything else is a PageError: tokens and
 * codes only ever go to a registered address.
 */
export function checkRedirectUri(client: OAuthClient, given: string | undefined): string {
  const registered = client.configuration.redirectUris;
  const uri = given ?? (registered.length === 1 ? registered[0] : undefined);
  if (uri === undefined) throw new PageError('invalid_request', 'redirect_uri is required');
  if (!registered.includes(uri))
    throw new PageError('invalid_request', 'redirect_uri is not registered for this client');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new PageError('invalid_request', 'redirect_uri is not an absolute address');
  }
  if (url.hash) throw new PageError('invalid_request', 'redirect_uri must not hold a fragment');
  if (url.protocol === 'http:' && !client.configuration.allowPlainHttpRedirectUri && !loopbackHosts.has(url.hostname)) {
    throw new PageError('invalid_request', 'this client may not use a plain http redirect_uri');
  }
  return uri;
}

/** The response type with its words sorted, or undefined when it is not one served. */
export function normaliseResponseType(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const sorted = value.split(' ').filter(Boolean).sort().join(' ');
  return responseTypes.includes(sorted) ? sorted : undefined;
}

/** The response mode asked for, or the default of the response type. */
export function responseModeOf(responseType: string | undefined, asked: string | undefined): ResponseMode {
  if (asked !== undefined && responseModes.includes(asked)) return asked as ResponseMode;
  return responseType === undefined || responseType === 'code'
    ? runtimeDefaults.defaultResponseMode.code
    : runtimeDefaults.defaultResponseMode.other;
}

/** Where errors of this request may go, once the client and its redirect address are trusted. */
export function responseTargetOf(client: OAuthClient, params: URLSearchParams): ResponseTarget {
  const redirectUri = checkRedirectUri(client, safeParam(params, 'redirect_uri'));
  const responseMode = responseModeOf(
    normaliseResponseType(safeParam(params, 'response_type')),
    safeParam(params, 'response_mode'),
  );
  const state = safeParam(params, 'state');
  return state === undefined ? { redirectUri, responseMode } : { redirectUri, responseMode, state };
}

/** A parameter for the error target: a repeated one counts as absent (the request fails on it later). */
function safeParam(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 && values[0] !== '' ? values[0] : undefined;
}

/**
 * Validates the rest of the request: response type and mode allowed for the client, scopes, PKCE (S256 only;
 * required for public clients and clients with `requirePkce`), nonce (required with an ID token from this
 * endpoint), prompt, max_age. Throws OAuth errors that go back to the redirect address.
 */
export function parseAuthorizationRequest(
  client: OAuthClient,
  params: URLSearchParams,
  target: ResponseTarget,
): AuthorizationRequest {
  const asked = param(params, 'response_type');
  if (asked === undefined) throw new InvalidRequest('response_type is required');
  const responseType = normaliseResponseType(asked);
  if (responseType === undefined) throw new UnsupportedResponseType(`response_type ${asked} is not supported`);
  checkResponseTypeAllowed(client, responseType);
  const mode = param(params, 'response_mode');
  if (mode !== undefined && !responseModes.includes(mode))
    throw new InvalidRequest(`response_mode ${mode} is not supported`);
  if (responseType !== 'code' && target.responseMode === 'query') {
    throw new InvalidRequest('response_mode query is not allowed when tokens are returned from this endpoint');
  }
  const scopes = grantScopes(client, param(params, 'scope'));
  if (responseType.includes('id_token') && !scopes.includes('openid')) {
    throw new InvalidScope('an ID token needs the openid scope');
  }
  const request: AuthorizationRequest = {
    ...target,
    clientId: client.clientId,
    responseType,
    scopes,
    prompt: parsePrompt(param(params, 'prompt')),
    acrValues: (param(params, 'acr_values') ?? '').split(' ').filter(Boolean),
  };
  const codeChallenge = parsePkce(client, responseType, params);
  if (codeChallenge !== undefined) request.codeChallenge = codeChallenge;
  const nonce = param(params, 'nonce');
  if (nonce !== undefined) request.nonce = nonce;
  if (responseType.includes('id_token') && nonce === undefined) {
    throw new InvalidRequest('nonce is required when an ID token is returned from this endpoint');
  }
  const maxAge = param(params, 'max_age');
  if (maxAge !== undefined) {
    if (!/^\d{1,9}$/.test(maxAge)) throw new InvalidRequest('max_age must be a number of seconds');
    request.maxAge = Number(maxAge);
  }
  for (const [name, key] of [
    ['login_hint', 'loginHint'],
    ['id_token_hint', 'idTokenHint'],
    ['ui_locales', 'uiLocales'],
    ['whr', 'whr'],
  ] as const) {
    const value = param(params, name);
    if (value !== undefined) request[key] = value;
  }
  if (param(params, 'request') !== undefined)
    throw new RequestNotSupported('a request object is read only as the authorization request itself');
  if (param(params, 'request_uri') !== undefined) {
    throw new RequestUriNotSupported('request_uri is not supported');
  }
  return request;
}

function checkResponseTypeAllowed(client: OAuthClient, responseType: string): void {
  const grants = client.configuration.allowedGrantTypes;
  const words = responseType.split(' ');
  if (words.includes('code') && !grants.includes('authorization_code')) {
    throw new UnauthorizedClient('the client may not use the authorization_code grant');
  }
  // Tokens from the authorization endpoint (implicit and hybrid responses) need the implicit grant (DESIGN 1.5).
  if ((words.includes('token') || !words.includes('code')) && !grants.includes('implicit')) {
    throw new UnauthorizedClient(`the client may not use response_type ${responseType}`);
  }
}

function parsePrompt(value: string | undefined): string[] {
  const prompt = [...new Set((value ?? '').split(' ').filter(Boolean))];
  const unknown = prompt.filter((p) => !promptValues.includes(p));
  if (unknown.length > 0) throw new InvalidRequest(`prompt ${unknown.join(' ')} is not supported`);
  if (prompt.includes('none') && prompt.length > 1) throw new InvalidRequest('prompt none cannot be combined');
  return prompt;
}

/** RFC 7636 with S256 only; returns the challenge. */
function parsePkce(client: OAuthClient, responseType: string, params: URLSearchParams): string | undefined {
  const challenge = param(params, 'code_challenge');
  const method = param(params, 'code_challenge_method');
  if (challenge === undefined) {
    if (method !== undefined) throw new InvalidRequest('code_challenge_method without code_challenge');
    const required = client.configuration.publicClient || client.configuration.requirePkce;
    if (required && responseType.includes('code')) {
      throw new InvalidRequest('this client must use PKCE (code_challenge with S256)');
    }
    return undefined;
  }
  if (method !== 'S256') throw new InvalidRequest('code_challenge_method must be S256');
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(challenge)) throw new InvalidRequest('code_challenge is malformed');
  return challenge;
}
