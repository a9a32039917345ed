/**
 * The JWS algorithms of keys that verify with a published public key (RFC 7518 §3.3–3.5, RFC 8037): what tokens and
 * assertions from outside (upstream logout tokens, client assertions) may be signed with. Never `none`, never HMAC.
 */
export const publicKeyJwsAlgorithms = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;
