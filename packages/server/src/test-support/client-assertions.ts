import { randomUUID } from 'node:crypto';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import { CLIENT_ASSERTION_TYPE } from '../runtime/client-assertion.js';

/** A client's key pair for private_key_jwt, and its public key as a JWK (with `kid` and `alg`). */
export interface ClientKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  alg: string;
  kid: string;
}

/** A new key pair of the algorithm (RS256, PS256, ES256, EdDSA…), extractable, its public JWK ready for `jwks`. */
export async function clientKey(alg = 'RS256'): Promise<ClientKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }, alg, kid };
}

/**
 * The claims of a client assertion of the client for the audience: iss and sub the client id, a new jti, iat now,
 * exp a minute ahead. `over` replaces claims; a claim set to undefined is left out.
 */
export function assertionClaims(clientId: string, audience: string, over: Record<string, unknown> = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: clientId,
    sub: clientId,
    aud: audience,
    jti: randomUUID(),
    iat: now,
    exp: now + 60,
    ...over,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return claims as JWTPayload;
}

/** Signs the claims as a compact JWS: with a private key, an HMAC secret, or unsigned (`alg: none`). No checks. */
export async function signAssertion(
  claims: JWTPayload,
  key: CryptoKey | string | null,
  header: { alg: string; kid?: string },
): Promise<string> {
  if (key === null) {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${part(header)}.${part(claims)}.`;
  }
  const signingKey = typeof key === 'string' ? new TextEncoder().encode(key) : key;
  return new SignJWT(claims).setProtectedHeader(header).sign(signingKey);
}

/** The form fields of a client assertion, with `extra` fields (grant_type, client_id…). */
export function assertionForm(assertion: string, extra: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({ client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion, ...extra });
}
