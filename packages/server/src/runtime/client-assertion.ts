import { decodeJwt, decodeProtectedHeader, type JWSHeaderParameters, type JWTPayload } from 'jose';
import { publicKeyJwsAlgorithms } from '../auth/jws-algorithms.js';
import { audiencesOf, jwtTimesProblem } from '../auth/received-jwt.js';
import type { AppContext } from '../context.js';
import { recordUsedAssertion } from '../queries/used-assertions.js';
import { hasClientKeys, verifiedAssertionPayload } from './client-assertion-keys.js';
import type { OAuthClient } from './clients.js';
import { runtimeDefaults, runtimePaths } from './defaults.js';
import { InvalidClient, InvalidRequest } from './oauth-errors.js';

/**
 * Client authentication by JWT assertion (RFC 7523 §2.2, RFC 7521 §4.2, OpenID Connect Core §9): private_key_jwt (a
 * JWT signed with one of the client's keys) and client_secret_jwt (a JWT signed with HMAC and the client's secret).
 */

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The algorithms of private_key_jwt assertions (never `none`, never HMAC). */
export const privateKeyJwtAlgorithms = publicKeyJwsAlgorithms;

/** The algorithms of client_secret_jwt assertions, and the least secret length (bytes) each needs (RFC 7518 §3.2). */
export const clientSecretJwtAlgorithms = ['HS256', 'HS384', 'HS512'] as const;
const hmacMinBytes: Record<string, number> = { HS256: 32, HS384: 48, HS512: 64 };

export type AssertionMethod = 'private_key_jwt' | 'client_secret_jwt';

/** The form holds a client assertion (either of its fields). */
export function hasClientAssertion(form: URLSearchParams): boolean {
  return form.has('client_assertion') || form.has('client_assertion_type');
}

/**
 * The client assertion of the form and the client it names: its `sub`, which its `iss` repeats, and which
 * `client_id`, when given, repeats too. Not verified yet. Throws InvalidRequest or InvalidClient.
 */
export function readClientAssertion(form: URLSearchParams): { clientId: string; assertion: string } {
  const type = form.get('client_assertion_type');
  const assertion = form.get('client_assertion');
  if (!type || !assertion) throw new InvalidRequest('client_assertion and client_assertion_type go together');
  if (type !== CLIENT_ASSERTION_TYPE) throw new InvalidClient(`client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`);
  let claims: JWTPayload;
  try {
    claims = decodeJwt(assertion);
  } catch {
    throw new InvalidClient('the client assertion is not a signed JWT');
  }
  const { sub, iss } = claims;
  if (typeof sub !== 'string' || sub === '') throw new InvalidClient('the client assertion has no sub (the client id)');
  if (iss !== sub) throw new InvalidClient("the client assertion's iss and sub differ (both are the client id)");
  const formId = form.get('client_id');
  if (formId !== null && formId !== sub) throw new InvalidClient("client_id differs from the client assertion's sub");
  return { clientId: sub, assertion };
}

/** What the claims check expects: the client, the accepted audiences, the time now (seconds). */
export interface ExpectedAssertion {
  clientId: string;
  audiences: readonly string[];
  now: number;
}

/**
 * The problem with a client assertion's claims, or its `jti` and `exp`: `iss` and `sub` the client id, `aud` holding
 * one of the accepted audiences, `exp` not past and at most `maxLifetime` ahead, `nbf` and `iat` (when present) not
 * in the future, a `jti` (beside the clock allowance of `runtimeDefaults.clientAssertion`).
 */
export function checkAssertionClaims(
  claims: JWTPayload,
  expected: ExpectedAssertion,
): string | { jti: string; exp: number } {
  const { clockSkew: skew, maxLifetime } = runtimeDefaults.clientAssertion;
  const { now } = expected;
  if (claims.iss !== expected.clientId || claims.sub !== expected.clientId) {
    return "the client assertion's iss and sub must be the client id";
  }
  const audiences = audiencesOf(claims);
  if (!audiences.some((aud) => expected.audiences.includes(aud))) {
    return 'the client assertion is not addressed to this server (aud must hold the issuer or the token endpoint URL)';
  }
  const times = jwtTimesProblem(claims, 'the client assertion', { now, skew, maxLifetime });
  if (typeof times === 'string') return times;
  const { jti } = claims;
  if (typeof jti !== 'string' || jti === '') return 'the client assertion has no jti';
  if (jti.length > runtimeDefaults.maxSamlAssertionIdLength) return "the client assertion's jti is too long";
  return { jti, exp: times.exp };
}

/** The method an assertion's `alg` stands for; `none`, a missing `alg` and others are refused. */
function methodOf(header: JWSHeaderParameters): AssertionMethod {
  const alg = header.alg ?? 'none';
  if ((privateKeyJwtAlgorithms as readonly string[]).includes(alg)) return 'private_key_jwt';
  if ((clientSecretJwtAlgorithms as readonly string[]).includes(alg)) return 'client_secret_jwt';
  if (alg === 'none') throw new InvalidClient('the client assertion must be signed (alg none is refused)');
  throw new InvalidClient(`the client assertion's alg ${alg.slice(0, 20)} is not accepted`);
}

/** The secret of a client_secret_jwt assertion signed with `alg`; InvalidClient when the client has none fit. */
function assertionSecret(client: OAuthClient, alg: string, secretOf: () => string | undefined): string {
  const secret = secretOf();
  if (secret === undefined) {
    throw new InvalidClient(
      client.clientSecretHash === null
        ? 'the client has no secret for client_secret_jwt'
        : "the client's secret is kept as a digest, which cannot verify client_secret_jwt",
    );
  }
  if (Buffer.byteLength(secret, 'utf8') < hmacMinBytes[alg]) {
    throw new InvalidClient(`${alg} needs a client secret of at least ${hmacMinBytes[alg]} bytes`);
  }
  return secret;
}

export type AssertionContext = Pick<AppContext, 'db' | 'baseUrl' | 'logger'>;

/**
 * Authenticates the client by its assertion: the method its `alg` stands for is the client's
 * `tokenEndpointAuthMethod` (or, without one, a method the client has the material for), the signature verifies
 * (`secretOf` gives the client's sealed secret, opened), the claims pass `checkAssertionClaims` with the issuer or
 * the token endpoint URL as audience, and its `jti` was not used by the client before. Throws InvalidClient.
 */
export async function verifyClientAssertion(
  ctx: AssertionContext,
  client: OAuthClient,
  assertion: string,
  secretOf: () => string | undefined,
): Promise<AssertionMethod> {
  let header: JWSHeaderParameters;
  try {
    header = decodeProtectedHeader(assertion);
  } catch {
    throw new InvalidClient('the client assertion is not a signed JWT');
  }
  const method = methodOf(header);
  const alg = header.alg as string;
  const required = client.configuration.tokenEndpointAuthMethod;
  if (required !== undefined && required !== method) {
    throw new InvalidClient(`the client authenticates with ${required}, not ${method}`);
  }
  if (client.configuration.publicClient) throw new InvalidClient('a public client does not authenticate');
  if (method === 'private_key_jwt' && !hasClientKeys(client)) {
    throw new InvalidClient('the client has no keys for private_key_jwt (jwks or jwksUri)');
  }
  const secret = method === 'client_secret_jwt' ? assertionSecret(client, alg, secretOf) : undefined;
  const payload = await verifiedAssertionPayload(ctx, client, assertion, { ...header, alg }, secret);
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    claims = undefined;
  }
  if (typeof claims !== 'object' || claims === null) {
    throw new InvalidClient("the client assertion's payload is not a JSON object");
  }
  const base = ctx.baseUrl();
  const checked = checkAssertionClaims(claims as JWTPayload, {
    clientId: client.clientId,
    audiences: [`${base}${runtimePaths.issuer}`, `${base}${runtimePaths.token}`],
    now: Math.floor(Date.now() / 1000),
  });
  if (typeof checked === 'string') throw new InvalidClient(checked);
  const fresh = await recordUsedAssertion(ctx.db, {
    connectionId: client.connectionId,
    assertionId: checked.jti,
    expiresAt: new Date((checked.exp + runtimeDefaults.clientAssertion.clockSkew) * 1000),
  });
  if (!fresh) throw new InvalidClient('the client assertion was used before (jti)');
  return method;
}
