/** RFC 6749 (and RFC 6750, RFC 8628) error responses: one class per error code. */
export class OAuthError extends Error {
  readonly error: string;
  readonly status: number;
  readonly description: string;

  constructor(error: string, status: number, description: string) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = status;
    this.description = description;
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

export class InvalidRequest extends OAuthError {
  constructor(description = 'the request is missing a parameter or is malformed') {
    super('invalid_request', 400, description);
  }
}

export class InvalidClient extends OAuthError {
  constructor(description = 'client authentication failed') {
    super('invalid_client', 401, description);
  }
}

export class InvalidGrant extends OAuthError {
  constructor(description = 'the grant is invalid, expired or revoked') {
    super('invalid_grant', 400, description);
  }
}

export class UnauthorizedClient extends OAuthError {
  constructor(description = 'the client may not use this grant type') {
    super('unauthorized_client', 400, description);
  }
}

export class UnsupportedGrantType extends OAuthError {
  constructor(description = 'the grant type is not supported') {
    super('unsupported_grant_type', 400, description);
  }
}

export class UnsupportedResponseType extends OAuthError {
  constructor(description = 'the response type is not supported') {
    super('unsupported_response_type', 400, description);
  }
}

export class InvalidScope extends OAuthError {
  constructor(description = 'the requested scope is invalid or not allowed') {
    super('invalid_scope', 400, description);
  }
}

export class AccessDenied extends OAuthError {
  constructor(description = 'the request was denied') {
    super('access_denied', 403, description);
  }
}

export class ServerError extends OAuthError {
  constructor(description = 'the server could not complete the request') {
    super('server_error', 500, description);
  }
}

export class TemporarilyUnavailable extends OAuthError {
  constructor(description = 'the server is temporarily unavailable') {
    super('temporarily_unavailable', 503, description);
  }
}

/** RFC 6750: a bearer token that is missing, expired, revoked or malformed. */
export class InvalidToken extends OAuthError {
  constructor(description = 'the access token is invalid') {
    super('invalid_token', 401, description);
  }
}

/** RFC 8628: the user has not yet finished the device authorization. */
export class AuthorizationPending extends OAuthError {
  constructor(description = 'the authorization request is still pending') {
    super('authorization_pending', 400, description);
  }
}

/** RFC 8628: the device polls too often. */
export class SlowDown extends OAuthError {
  constructor(description = 'poll less often') {
    super('slow_down', 400, description);
  }
}

/** RFC 8628: the device code has expired. */
export class ExpiredToken extends OAuthError {
  constructor(description = 'the device code has expired') {
    super('expired_token', 400, description);
  }
}

/** OpenID Connect Core §3.1.2.6: prompt none, but the person must sign in. */
export class LoginRequired extends OAuthError {
  constructor(description = 'the user must sign in') {
    super('login_required', 400, description);
  }
}

/** OpenID Connect Core §3.1.2.6: prompt none, but the person must consent. */
export class ConsentRequired extends OAuthError {
  constructor(description = 'the user must consent') {
    super('consent_required', 400, description);
  }
}

/** OpenID Connect Core §3.1.2.6: prompt none, but the person must choose an account. */
export class AccountSelectionRequired extends OAuthError {
  constructor(description = 'the user must choose an account') {
    super('account_selection_required', 400, description);
  }
}

/** OpenID Connect Core §3.1.2.6: request objects are not served. */
export class RequestNotSupported extends OAuthError {
  constructor(description = 'request objects are not supported') {
    super('request_not_supported', 400, description);
  }
}

export class RequestUriNotSupported extends OAuthError {
  constructor(description = 'request_uri is not supported') {
    super('request_uri_not_supported', 400, description);
  }
}

/** RFC 9101 §6.3, OpenID Connect Core §3.1.2.6: the request object (`request`) is invalid or does not verify. */
export class InvalidRequestObject extends OAuthError {
  constructor(description = 'the request object is invalid') {
    super('invalid_request_object', 400, description);
  }
}

/** RFC 6750 §3.1: the access token lacks a scope the resource needs. */
export class InsufficientScope extends OAuthError {
  constructor(description = 'the access token lacks a needed scope') {
    super('insufficient_scope', 403, description);
  }
}

export interface OAuthErrorResponseOptions {
  /** The client authenticated with the Authorization header: invalid_client then carries a Basic challenge. */
  basicAuthUsed?: boolean;
}

/** The JSON error response of the token (and similar) endpoints: `{ error, error_description }`, never cached. */
export function oauthErrorResponse(err: OAuthError, options: OAuthErrorResponseOptions = {}): Response {
  const headers = new Headers({
    'Content-Type': 'application/json; charset=UTF-8',
    'Cache-Control': 'no-store',
    Pragma: 'no-cache',
  });
  if (err.error === 'invalid_client' && options.basicAuthUsed) {
    headers.set('WWW-Authenticate', 'Basic realm="idsvc"');
  }
  return new Response(JSON.stringify(err.toJSON()), { status: err.status, headers });
}
