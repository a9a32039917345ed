import { hmacKeyBytes } from '@idsvc/shared';
import { decodeProtectedHeader, type JWSHeaderParameters, type JWTPayload } from 'jose';
import { publicKeyJwsAlgorithms } from '../../auth/jws-algorithms.js';
import { hmacAlgorithms, isHmacAlgorithm } from '../../auth/jwt.js';
import { audiencesOf, jwtTimesProblem } from '../../auth/received-jwt.js';
import type { AppContext } from '../../context.js';
import { issuerOf } from '../access-token.js';
import { type ClientSignedJwt, hasClientKeys, verifiedAssertionPayload } from '../client-assertion-keys.js';
import { type OAuthClient, openedSecret } from '../clients.js';
import { runtimeDefaults } from '../defaults.js';
import { InvalidRequest, InvalidRequestObject } from '../oauth-errors.js';

/**
 * JWT-Secured Authorization Requests (RFC 9101, OpenID Connect Core §6.1): the authorization request as the claims
 * of a JWT the client signed, passed by value in the `request` parameter (at the authorization endpoint, or inside a
 * pushed request). Request objects by reference (a `request_uri` other than a pushed request's) are not fetched.
 */

/** The algorithms of request objects: the client's public keys (`jwks`, `jwksUri`), or HMAC with its sealed secret. */
export const requestObjectAlgorithms = [...publicKeyJwsAlgorithms, ...hmacAlgorithms] as const;

export type RequestObjectContext = Pick<AppContext, 'box' | 'baseUrl' | 'logger'>;

const requestObject: ClientSignedJwt = { name: 'request object', refuse: (d) => new InvalidRequestObject(d) };

/** The client's authorization requests come as signed request objects only: its `requireSignedRequestObject`. */
export function mustSignRequestObjects(client: OAuthClient): boolean {
  return client.configuration.requireSignedRequestObject;
}

/** Claims of the JWT itself, not parameters of the authorization request. */
const jwtClaims = new Set(['iss', 'aud', 'exp', 'iat', 'nbf', 'jti']);

/** What the claims check expects: the client, this server's issuer, the time now (seconds). */
export interface ExpectedRequestObject {
  clientId: string;
  issuer: string;
  now: number;
}

/**
 * The problem with a request object's claims, if any: `iss` and `client_id` the client id, `aud` holding the issuer,
 * `exp` not past and at most `requestObjectMaxLifetime` ahead, `nbf` and `iat` (when present) not in the future
 * (beside the clock allowance of client assertions).
 */
export function checkRequestObjectClaims(claims: JWTPayload, expected: ExpectedRequestObject): string | undefined {
  const skew = runtimeDefaults.clientAssertion.clockSkew;
  const maxLifetime = runtimeDefaults.requestObjectMaxLifetime;
  const { now } = expected;
  if (claims.iss !== expected.clientId) return "the request object's iss must be the client id";
  const audiences = audiencesOf(claims);
  if (!audiences.includes(expected.issuer)) {
    return 'the request object is not addressed to this server (aud must hold the issuer)';
  }
  if (claims.client_id !== expected.clientId) return "the request object's client_id must be the request's client_id";
  const times = jwtTimesProblem(claims, 'the request object', { now, skew, maxLifetime });
  return typeof times === 'string' ? times : undefined;
}

/**
 * The authorization request parameters a request object's claims stand for: every claim but those of the JWT itself;
 * strings as they are, numbers, booleans and objects (`claims`) as JSON, each item of an array (`resource`) as a
 * value of its own. A request object holding `request` or `request_uri` is refused (RFC 9101 §4).
 */
export function requestObjectParameters(claims: JWTPayload): URLSearchParams {
  if (claims.request !== undefined || claims.request_uri !== undefined) {
    throw new InvalidRequestObject('the request object must not hold request or request_uri');
  }
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(claims)) {
    if (jwtClaims.has(name) || value === null || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      params.append(name, typeof item === 'string' ? item : JSON.stringify(item));
    }
  }
  return params;
}

/** The header of a signed request object, its `alg` one of `requestObjectAlgorithms`. */
function headerOf(jwt: string): JWSHeaderParameters & { alg: string } {
  if (jwt.split('.').length === 5) {
    throw new InvalidRequestObject(
      'the request object is encrypted (JWE), which is not supported: send it signed only',
    );
  }
  let header: JWSHeaderParameters;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    throw new InvalidRequestObject('the request object is not a signed JWT');
  }
  const alg = header.alg ?? 'none';
  if (alg === 'none') throw new InvalidRequestObject('the request object must be signed (alg none is refused)');
  if (!(requestObjectAlgorithms as readonly string[]).includes(alg)) {
    throw new InvalidRequestObject(`the request object's alg ${alg.slice(0, 20)} is not accepted`);
  }
  return { ...header, alg };
}

/** The secret an HMAC request object verifies with: the client's, kept sealed and long enough for `alg`. */
function hmacSecret(ctx: RequestObjectContext, client: OAuthClient, alg: keyof typeof hmacKeyBytes): string {
  const secret = openedSecret(ctx.box, client);
  if (secret === undefined) {
    throw new InvalidRequestObject(
      client.clientSecretHash === null
        ? `the client has no secret to verify an ${alg} request object with`
        : `the client's secret is kept as a digest, which cannot verify an ${alg} request object`,
    );
  }
  if (Buffer.byteLength(secret, 'utf8') < hmacKeyBytes[alg]) {
    throw new InvalidRequestObject(`${alg} needs a client secret of at least ${hmacKeyBytes[alg]} bytes`);
  }
  return secret;
}

/**
 * Verifies the client's request object and returns the parameters it holds (`requestObjectParameters`): signed with
 * one of the client's keys or, with HS256/384/512, its sealed secret; `alg: none` and encrypted request objects are
 * refused; the claims pass `checkRequestObjectClaims`. Throws InvalidRequestObject saying what failed.
 */
export async function verifyRequestObject(
  ctx: RequestObjectContext,
  client: OAuthClient,
  jwt: string,
  now = Math.floor(Date.now() / 1000),
): Promise<URLSearchParams> {
  const header = headerOf(jwt);
  let secret: string | undefined;
  if (isHmacAlgorithm(header.alg)) secret = hmacSecret(ctx, client, header.alg);
  else if (!hasClientKeys(client)) {
    throw new InvalidRequestObject(
      `the client has no keys (jwks or jwksUri) to verify an ${header.alg} request object`,
    );
  }
  const payload = await verifiedAssertionPayload(ctx, client, jwt, header, secret, requestObject);
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    claims = undefined;
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
    throw new InvalidRequestObject("the request object's payload is not a JSON object");
  }
  const problem = checkRequestObjectClaims(claims as JWTPayload, {
    clientId: client.clientId,
    issuer: issuerOf(ctx),
    now,
  });
  if (problem !== undefined) throw new InvalidRequestObject(problem);
  return requestObjectParameters(claims as JWTPayload);
}

/**
 * The parameters of the client's authorization request (a query or a push, its client the one `client_id` names):
 * with `request`, only the verified request object's (RFC 9101 §6.3: the others are ignored); without it, `params`
 * themselves, unless the client must sign its requests (RFC 9101 §10.5). `request` with `request_uri`, `request`
 * given twice and a missing request object are InvalidRequest; a request object that does not verify is
 * InvalidRequestObject.
 */
export async function requestObjectParams(
  ctx: RequestObjectContext,
  client: OAuthClient,
  params: URLSearchParams,
): Promise<URLSearchParams> {
  const objects = params.getAll('request');
  if (objects.length === 0) {
    if (mustSignRequestObjects(client)) {
      throw new InvalidRequest('this client must send its authorization requests as signed request objects (request)');
    }
    return params;
  }
  if (params.has('request_uri')) throw new InvalidRequest('request and request_uri cannot be used together');
  if (objects.length > 1) throw new InvalidRequest('request is given more than once');
  return verifyRequestObject(ctx, client, objects[0]);
}
