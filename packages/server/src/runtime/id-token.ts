import type { JWTPayload } from 'jose';
import type { AppContext } from '../context.js';
import { issuerOf } from './access-token.js';
import type { OAuthClient } from './clients.js';
import { runtimeDefaults } from './defaults.js';
import { halfHash, signForClient, signingAlgorithmOf } from './signing.js';

export interface IdTokenInput {
  /** The released claims, `sub` among them (claims.ts `releasedClaims`). */
  claims: Record<string, unknown>;
  authTime: Date;
  nonce?: string | undefined;
  acr?: string | null | undefined;
  amr?: readonly string[] | undefined;
  /** The browser session, as `sid`. */
  sessionId?: string | null | undefined;
  /** Returned beside the ID token: hashed into `at_hash` / `c_hash`. */
  accessToken?: string | undefined;
  code?: string | undefined;
}

/** An ID token (OpenID Connect Core §2) for the client, signed with the client's algorithm. */
export async function issueIdToken(
  ctx: Pick<AppContext, 'keys' | 'box' | 'baseUrl'>,
  client: OAuthClient,
  input: IdTokenInput,
): Promise<string> {
  const { sub, ...claims } = input.claims;
  const alg = signingAlgorithmOf(client);
  const payload: JWTPayload = {
    ...claims,
    auth_time: Math.floor(input.authTime.getTime() / 1000),
    azp: client.clientId,
  };
  if (input.nonce !== undefined) payload.nonce = input.nonce;
  if (input.acr) payload.acr = input.acr;
  if (input.amr && input.amr.length > 0) payload.amr = [...input.amr];
  if (input.sessionId) payload.sid = input.sessionId;
  if (input.accessToken !== undefined) payload.at_hash = halfHash(input.accessToken, alg);
  if (input.code !== undefined) payload.c_hash = halfHash(input.code, alg);
  return signForClient(ctx, client, payload, {
    issuer: issuerOf(ctx),
    subject: String(sub),
    audience: client.clientId,
    expiresInSeconds: runtimeDefaults.idTokenLifetime,
  });
}
