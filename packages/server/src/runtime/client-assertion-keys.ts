import {
  compactVerify,
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JSONWebKeySet,
  type JWSHeaderParameters,
} from 'jose';
import type { AppContext } from '../context.js';
import type { OAuthClient } from './clients.js';
import { InvalidClient, type OAuthError } from './oauth-errors.js';

/** A kind of JWT a client signs: its name in messages, and the error that refuses one. */
export interface ClientSignedJwt {
  name: string;
  refuse: (description: string) => OAuthError;
}

/** Client assertions (RFC 7523 §2.2): refused with invalid_client. */
const clientAssertion: ClientSignedJwt = { name: 'client assertion', refuse: (d) => new InvalidClient(d) };

/** Finds the key of a JWS header's `alg` and `kid` in a JWK Set (jose's local and remote sets alike). */
type KeySet = (header: JWSHeaderParameters) => ReturnType<ReturnType<typeof createLocalJWKSet>>;
type VerificationKey = Awaited<ReturnType<KeySet>>;

/** Remote key sets by address: jose keeps each one's copy and its cooldown, so they live as long as the process. */
const remoteSets = new Map<string, KeySet>();
const REMOTE_SETS = 1_000;

/** Inline key sets by client object (a client object lives `clientCacheMs`). */
const localSets = new WeakMap<OAuthClient, KeySet>();

/** The key set of a client's `jwks` or `jwksUri`; undefined when it has neither. Throws when it cannot be built. */
function keySetOf(client: OAuthClient): KeySet | undefined {
  const { jwks, jwksUri } = client.configuration;
  if (jwks !== undefined) {
    let set = localSets.get(client);
    if (!set) {
      set = createLocalJWKSet(jwks as JSONWebKeySet);
      localSets.set(client, set);
    }
    return set;
  }
  if (jwksUri === undefined) return undefined;
  let remote = remoteSets.get(jwksUri);
  if (!remote) {
    if (remoteSets.size >= REMOTE_SETS) remoteSets.clear();
    remote = createRemoteJWKSet(new URL(jwksUri));
    remoteSets.set(jwksUri, remote);
  }
  return remote;
}

/** The client has keys to verify private_key_jwt assertions with. */
export function hasClientKeys(client: OAuthClient): boolean {
  return client.configuration.jwks !== undefined || client.configuration.jwksUri !== undefined;
}

/** The keys of the set that fit the header (one, or several that share a `kid` or have none). */
async function fittingKeys(set: KeySet, header: JWSHeaderParameters): Promise<VerificationKey[]> {
  try {
    return [await set(header)];
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    const keys: VerificationKey[] = [];
    for await (const key of error) keys.push(key);
    return keys;
  }
}

/**
 * The keys of the client (its `jwks`, or the JWK Set at its `jwksUri`) that fit the JWT's header. Refuses (`kind`)
 * when none fits, and when the keys cannot be read or used: a warning is logged then (an address that does not
 * answer, a set or key that jose cannot import), as that is for the client's owner to mend.
 */
async function clientKeys(
  ctx: Pick<AppContext, 'logger'>,
  client: OAuthClient,
  header: JWSHeaderParameters,
  kind: ClientSignedJwt,
): Promise<VerificationKey[]> {
  const remote = client.configuration.jwks === undefined;
  let keys: VerificationKey[];
  try {
    const set = keySetOf(client);
    keys = set ? await fittingKeys(set, header) : [];
  } catch (error) {
    if (error instanceof errors.JWKSNoMatchingKey) keys = [];
    else {
      ctx.logger.warn(remote ? 'client JWK Set could not be read' : 'client JWK Set cannot be used', {
        clientId: client.clientId,
        ...(remote ? { jwksUri: client.configuration.jwksUri } : {}),
        error: String(error),
      });
      throw kind.refuse(
        remote ? "the client's JWK Set could not be read from its jwksUri" : "the client's jwks cannot be used",
      );
    }
  }
  if (keys.length === 0) throw kind.refuse(`no key of the client's JWK Set fits the ${kind.name} (kid, alg)`);
  return keys;
}

/**
 * The verified payload of a JWT the client signed with `alg` (a client assertion unless `kind` says otherwise): with
 * one of the client's keys (private_key_jwt, a public-key algorithm), or with `secret` (client_secret_jwt, an HMAC
 * algorithm). Throws the error of `kind` (InvalidClient for a client assertion) saying what failed.
 */
export async function verifiedAssertionPayload(
  ctx: Pick<AppContext, 'logger'>,
  client: OAuthClient,
  assertion: string,
  header: JWSHeaderParameters & { alg: string },
  secret?: string,
  kind: ClientSignedJwt = clientAssertion,
): Promise<Uint8Array> {
  const keys = secret === undefined ? await clientKeys(ctx, client, header, kind) : [new TextEncoder().encode(secret)];
  let failure: unknown;
  for (const key of keys) {
    try {
      return (await compactVerify(assertion, key, { algorithms: [header.alg] })).payload;
    } catch (error) {
      failure = error;
    }
  }
  if (failure instanceof errors.JWSSignatureVerificationFailed) {
    const by = secret === undefined ? "the client's keys" : "the client's secret";
    throw kind.refuse(`the ${kind.name}'s signature does not verify with ${by}`);
  }
  const reason = failure instanceof Error ? failure.message : String(failure);
  throw kind.refuse(`the ${kind.name} does not verify: ${reason}`);
}
