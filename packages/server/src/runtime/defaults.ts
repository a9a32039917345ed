/**
 * Every default of the runtime (OAuth 2.0 / OpenID Connect provider and its pages), in one place. Per-client values
 * (token lifetimes, PKCE, consent, signing algorithm…) come from the OAuth20 connection's configuration and fall back
 * to `client` below; the rest is global. Times are in seconds unless the name says otherwise.
 */
export const runtimeDefaults = {
  /**
   * An OAuth20 client's configuration where it sets nothing (or something unusable): the scopes it may ask for
   * (DESIGN 1.5), token lifetimes, and the signing algorithm.
   */
  client: {
    scopes: ['openid', 'profile', 'email', 'phone', 'address', 'offline_access'],
    accessTokenLifetime: 3600,
    refreshTokenLifetime: 30 * 24 * 60 * 60,
    /** Longest life of a chain of rotated refresh tokens. */
    refreshTokenAbsoluteLifetime: 365 * 24 * 60 * 60,
    signingAlgorithm: 'RS256',
  },
  /** Life of an authorization code (RFC 6749 §4.1.2 recommends at most 10 minutes). */
  authorizationCodeLifetime: 60,
  /** Life of an ID token. */
  idTokenLifetime: 3600,
  /**
   * Pushed authorization requests (RFC 9126): life of a `request_uri` (its `expires_in`). The client sends the
   * browser to the authorization endpoint at once, and the request is used there once.
   */
  pushedAuthorizationRequestLifetime: 60,
  /**
   * Request objects (RFC 9101, the `request` parameter): the longest life one may have left (`exp` at most this far
   * ahead). Its `exp`, `nbf` and `iat` are checked with the clock allowance of `clientAssertion`.
   */
  requestObjectMaxLifetime: 5 * 60,
  /**
   * Back-channel logout (OpenID Connect Back-Channel Logout 1.0): life of a logout token (it is used at once), and
   * how long the post of one to a client's `backchannelLogoutUri` may take before it counts as failed.
   */
  logoutTokenLifetime: 2 * 60,
  backchannelLogoutTimeout: 5,
  /**
   * Front-channel logout (OpenID Connect Front-Channel Logout 1.0): how long the page that loads the clients'
   * `frontchannelLogoutUri` in hidden iframes stays before it goes on (meta refresh) to the post-logout address or the
   * upstream provider's answer; time for the frames to load, the page works without JavaScript.
   */
  frontchannelLogoutDelay: 2,
  /**
   * Back-channel logout from an upstream OpenID Connect provider: the oldest logout token accepted, by its `iat`
   * (beside the clock allowance). Its `jti` is kept as long as the token could be accepted, so one token ends
   * sessions once.
   */
  upstreamLogoutTokenMaxAge: 5 * 60,
  /** Life of a sign-in interaction: the time a person has to fill in the login and consent pages. */
  interactionLifetime: 30 * 60,
  /** Life of a browser session when system setup sets no `sessionLifetime`. */
  sessionLifetime: 8 * 60 * 60,
  /** Device authorization (RFC 8628): life of a device code, and the least seconds between two polls. */
  deviceCodeLifetime: 10 * 60,
  devicePollInterval: 5,
  /** RFC 8628 §6.1: user codes of 8 characters from 20 consonants (about 34 bits), shown as XXXX-XXXX. */
  userCodeAlphabet: 'BCDFGHJKLMNPQRSTVWXZ',
  userCodeLength: 8,
  /** Response mode of each response type when the request names none (OAuth 2.0 Multiple Response Types). */
  defaultResponseMode: { code: 'query', other: 'fragment' } as const,
  /** The `acr` of a sign-in with a password, when the request asks for no particular class. */
  passwordAcr: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
  /** The user claim whose value is the NameID, used as `sub` for clients with `useNameIdAsSub`; else userName. */
  nameIdClaimTypes: ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier', 'nameid'],
  /**
   * Signing key rotation: a key signs for `signingKeyRotationInterval`, its successor is published
   * `signingKeyPublishDelay` before it signs (longer than JWKS caching), and a retired key stays published as long
   * as the longest-lived token it may have signed (checked every `signingKeyCheckInterval`).
   */
  signingKeyRotationInterval: 90 * 24 * 60 * 60,
  signingKeyPublishDelay: 60 * 60,
  signingKeyCheckInterval: 60 * 60,
  /** Allowance for clocks that differ, added to a retired key's life. */
  clockSkew: 5 * 60,
  /**
   * Client authentication by JWT assertion (RFC 7523 §2.2: private_key_jwt and client_secret_jwt): the allowance for
   * clocks that differ when an assertion's `exp`, `nbf` and `iat` are checked, and the longest life an assertion may
   * have left (`exp` at most `maxLifetime` ahead). Its `jti` is kept until its `exp` plus the allowance, so an
   * assertion is accepted once. A client's `jwksUri` is read as jose reads remote key sets: within 5 seconds, kept
   * 10 minutes, read again for an unknown key at most every 30 seconds.
   */
  clientAssertion: { clockSkew: 60, maxLifetime: 5 * 60 },
  /** How long the in-memory copies of rarely changing settings are trusted (CORS origins, system setup, texts). */
  settingsCacheMs: 2_000,
  /** How long an OAuth client read from the database is trusted before it is read again. */
  clientCacheMs: 2_000,
  /** Cookies: the browser session, and the browser binding that CSRF tokens are tied to. */
  sessionCookie: 'idsvc_session',
  browserCookie: 'idsvc_bid',
  /** The language of the pages when neither `ui_locales` nor Accept-Language names a supported one. */
  language: 'en' as const,
  /** Largest form body the runtime reads. */
  maxFormBytes: 64 * 1024,
  /**
   * Largest form body the SAML assertion consumer service, the SAML single logout service (its SOAP envelopes too)
   * and the WS-Federation reply address read (responses with many attributes are large).
   */
  maxSamlFormBytes: 512 * 1024,
  /**
   * Longest ID of a SAML assertion accepted, WS-Federation's and a client assertion's `jti` too (the IDs of used
   * assertions are kept, in an index).
   */
  maxSamlAssertionIdLength: 256,
  /**
   * Life of the sealed result of a verified SAML response (or WS-Federation token), from the ACS (reply address) to
   * its continuation in this browser; likewise of a provider's LogoutRequest verified at the single logout service's
   * HTTP-POST endpoint, and of a LogoutRequest of this service waiting to be posted to the provider.
   */
  samlResultLifetime: 60,
  /** The state key of the sealed random value the CSRF key is derived from. */
  macKeyState: 'runtime_mac_key',
  /** The state key of the sealed SAML service provider credential (its key and self-signed certificate). */
  samlCredentialState: 'runtime_saml_credential',
  /**
   * Removal of rows that are of no more use (runtime/housekeeping.ts): every `interval`, by one instance of those
   * sharing the database, at most `batchSize` rows per statement. A row goes `grace` after it expired, once nothing
   * needs it: sessions stay while a refresh token that can still be used came from them (its ID tokens repeat the
   * session's `amr`); refresh tokens stay until they expire, rotated ones too (presenting a rotated token again
   * revokes its family); authorization codes stay a day (presenting a used one again revokes what it gave); a
   * revoked access token's record stays until the token has expired; a used SAML assertion's ID (or upstream logout
   * token's jti) stays until it could no longer be accepted (its `expires_at` includes the clock skew); a pushed
   * authorization request, used or not, is of no use once it has expired. Correlation error records go
   * `correlationErrorRetention` after they were recorded. On the embedded database, which has no autovacuum, each
   * run ends with a VACUUM so that the space of removed and updated rows is used again.
   */
  housekeeping: {
    interval: 60 * 60,
    batchSize: 5000,
    grace: {
      sessions: 60 * 60,
      refreshTokens: 60 * 60,
      authorizationCodes: 24 * 60 * 60,
      deviceCodes: 15 * 60,
      actionTokens: 15 * 60,
      oneTimeCodes: 15 * 60,
      usedSamlAssertions: 15 * 60,
      samlRelayStates: 15 * 60,
      pushedAuthorizationRequests: 15 * 60,
      revokedAccessTokens: 60 * 60,
    },
    correlationErrorRetention: 30 * 24 * 60 * 60,
  },
} as const;

/** Event ids of the runtime's log records (spec, Events). */
export const runtimeEvents = {
  /** Any OAuth 2.0 error answered by the runtime. */
  oauthError: 4110,
  /** An error response received from an upstream identity provider. */
  upstreamError: 4111,
} as const;

/** Runtime addresses (DESIGN 1.6), relative to the base URL. */
export const runtimePaths = {
  issuer: '/runtime/oauth2',
  discovery: '/runtime/oauth2/.well-known/openid-configuration',
  authorization: '/runtime/oauth2/authorize.idp',
  login: '/runtime/oauth2/login.idp',
  consent: '/runtime/oauth2/consent.idp',
  secondFactor: '/runtime/oauth2/otp.idp',
  changePassword: '/runtime/oauth2/changepassword.idp',
  token: '/runtime/oauth2/token.idp',
  /** Pushed authorization requests (RFC 9126): a client posts its authorization request here first. */
  pushedAuthorization: '/runtime/oauth2/par.idp',
  jwks: '/runtime/oauth2/jwks.idp',
  userinfo: '/runtime/openidconnect/userinfo.idp',
  revocation: '/runtime/oauth2/revoke.idp',
  introspection: '/runtime/oauth2/introspect.idp',
  endSession: '/runtime/openidconnect/logout.idp',
  deviceAuthorization: '/runtime/oauth2/deviceauthorization.idp',
  device: '/runtime/oauth2/device.idp',
  upstreamCallback: '/runtime/oauth2/callback.idp',
  /**
   * Where an upstream OpenID Connect provider posts its logout token (OpenID Connect Back-Channel Logout 1.0), server
   * to server: the sessions signed in through it with the token's `sid` or `sub` end.
   */
  upstreamBackchannelLogout: '/runtime/oauth2/backchannel-logout.idp',
  /** Where an upstream OpenID Connect provider or WS-Federation service sends the browser back after its sign-out. */
  upstreamLogoutReturn: '/runtime/oauth2/logout-return.idp',
  /** Upstream SAML 2.0 sign-in: this service's entity id as a service provider, its ACS and its metadata. */
  samlEntityId: '/runtime/saml2',
  samlAcs: '/runtime/saml2/acs.idp',
  /** Single logout service (HTTP-Redirect and HTTP-POST): the identity provider's LogoutRequest and LogoutResponse. */
  samlSlo: '/runtime/saml2/slo.idp',
  /**
   * Single logout service of the SOAP binding (SAML 2.0 Bindings §3.2): the identity provider's LogoutRequest, server
   * to server, answered with a LogoutResponse in the SOAP response.
   */
  samlSloSoap: '/runtime/saml2/slo-soap.idp',
  samlMetadata: '/runtime/saml2/metadata.idp',
  /** Upstream WS-Federation sign-in: this service's realm (wtrealm) and the reply address tokens are posted to. */
  wsfedRealm: '/runtime/wsfed',
  wsfedReply: '/runtime/wsfed/reply.idp',
  /** This service's WS-Federation metadata as a relying party (WS-Federation 1.2 §3.1), at its well-known path. */
  wsfedMetadata: '/runtime/wsfed/FederationMetadata/2007-06/FederationMetadata.xml',
  forgotPassword: '/runtime/ResetPassword/ForgotPassword2',
  stylesheet: '/runtime/assets/idsvc.css',
} as const;
