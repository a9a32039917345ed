import { Hono } from 'hono';
import type { AppContext } from '../context.js';
import { issuerOf } from './access-token.js';
import { responseTypes } from './authorize/request.js';
import { requestObjectAlgorithms } from './authorize/request-object.js';
import { scopeClaims } from './claims.js';
import { clientSecretJwtAlgorithms, privateKeyJwtAlgorithms } from './client-assertion.js';
import { DEFAULT_CLIENT_SCOPES } from './clients.js';
import { runtimePaths } from './defaults.js';
import { languages } from './pages/texts.js';

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
const clientAuthMethods = ['client_secret_basic', 'client_secret_post', 'client_secret_jwt', 'private_key_jwt'];
/** The algorithms of private_key_jwt and client_secret_jwt assertions. */
const clientAuthAlgorithms = [...privateKeyJwtAlgorithms, ...clientSecretJwtAlgorithms];

/** The discovery document (OpenID Connect Discovery 1.0): every address built from the base URL (spec). */
export function discoveryDocument(ctx: Pick<AppContext, 'baseUrl'>): Record<string, unknown> {
  const base = ctx.baseUrl();
  return {
    issuer: issuerOf(ctx),
    authorization_endpoint: `${base}${runtimePaths.authorization}`,
    token_endpoint: `${base}${runtimePaths.token}`,
    pushed_authorization_request_endpoint: `${base}${runtimePaths.pushedAuthorization}`,
    userinfo_endpoint: `${base}${runtimePaths.userinfo}`,
    jwks_uri: `${base}${runtimePaths.jwks}`,
    revocation_endpoint: `${base}${runtimePaths.revocation}`,
    introspection_endpoint: `${base}${runtimePaths.introspection}`,
    end_session_endpoint: `${base}${runtimePaths.endSession}`,
    device_authorization_endpoint: `${base}${runtimePaths.deviceAuthorization}`,
    scopes_supported: DEFAULT_CLIENT_SCOPES,
    response_types_supported: responseTypes,
    response_modes_supported: ['query', 'fragment', 'form_post'],
    grant_types_supported: [
      'authorization_code',
      'implicit',
      'refresh_token',
      'client_credentials',
      'password',
      DEVICE_CODE,
    ],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256', 'ES256', 'HS256', 'HS384', 'HS512'],
    token_endpoint_auth_methods_supported: [...clientAuthMethods, 'none'],
    revocation_endpoint_auth_methods_supported: [...clientAuthMethods, 'none'],
    introspection_endpoint_auth_methods_supported: clientAuthMethods,
    token_endpoint_auth_signing_alg_values_supported: clientAuthAlgorithms,
    revocation_endpoint_auth_signing_alg_values_supported: clientAuthAlgorithms,
    introspection_endpoint_auth_signing_alg_values_supported: clientAuthAlgorithms,
    code_challenge_methods_supported: ['S256'],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'acr',
      'amr',
      'azp',
      'sid',
      ...new Set(Object.values(scopeClaims).flat()),
    ],
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    ui_locales_supported: [...languages],
    claims_parameter_supported: false,
    // RFC 9101: request objects by value (`request`), signed; by reference only as pushed requests (RFC 9126).
    request_parameter_supported: true,
    request_object_signing_alg_values_supported: requestObjectAlgorithms,
    request_uri_parameter_supported: false,
    // RFC 9126 §5: pushing is optional here; a client may require it of itself (requirePushedAuthorizationRequests).
    require_pushed_authorization_requests: false,
    authorization_response_iss_parameter_supported: true,
    // OpenID Connect Back-Channel Logout 1.0 §2.1: logout tokens carry `sid`, which ID tokens carry too.
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    // OpenID Connect Front-Channel Logout 1.0 §3: the clients' addresses get `iss` and `sid`, the `sid` of ID tokens
    // (unless a client sets frontchannelLogoutSessionRequired to false).
    frontchannel_logout_supported: true,
    frontchannel_logout_session_supported: true,
  };
}

/** `GET /runtime/oauth2/.well-known/openid-configuration`. */
export function discoveryRoute(ctx: Pick<AppContext, 'baseUrl'>): Hono {
  const app = new Hono();
  app.get(runtimePaths.discovery, (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(discoveryDocument(ctx));
  });
  return app;
}
