import { timingSafeEqual } from 'node:crypto';
import { tokenEndpointAuthMethods } from '@idsvc/shared';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { isHmacAlgorithm } from '../auth/jwt.js';
import type { AppContext } from '../context.js';
import { sha256Bytes } from '../crypto/digest.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { DbOrTx } from '../db/client.js';
import { connections } from '../db/schema/index.js';
import { hasClientAssertion, readClientAssertion, verifyClientAssertion } from './client-assertion.js';
import { runtimeDefaults } from './defaults.js';
import { InvalidClient, InvalidRequest, UnauthorizedClient } from './oauth-errors.js';

/** Scopes a client may ask for when its connection lists none (DESIGN 1.5). */
export const DEFAULT_CLIENT_SCOPES: readonly string[] = runtimeDefaults.client.scopes;

const stringList = z.array(z.string()).catch([]);
const lifetime = (fallback: number) => z.number().int().positive().catch(fallback);

/** The parts of an OAuth20 connection's configuration the runtime reads; wrong values fall back to defaults. */
export const ClientConfiguration = z.looseObject({
  publicClient: z.boolean().catch(false),
  allowedGrantTypes: stringList,
  redirectUris: stringList,
  postLogoutRedirectUris: stringList,
  allowedCorsOrigins: stringList,
  allowPlainHttpRedirectUri: z.boolean().catch(false),
  requirePkce: z.boolean().catch(false),
  consentRequired: z.boolean().catch(false),
  useNameIdAsSub: z.boolean().catch(false),
  signingAlgorithm: z.string().catch(runtimeDefaults.client.signingAlgorithm),
  accessTokenLifetime: lifetime(runtimeDefaults.client.accessTokenLifetime),
  refreshTokenLifetime: lifetime(runtimeDefaults.client.refreshTokenLifetime),
  /** Longest life of a chain of rotated refresh tokens. */
  refreshTokenAbsoluteLifetime: lifetime(runtimeDefaults.client.refreshTokenAbsoluteLifetime),
  /** RFC 9126 §5: the client's authorization requests come by push only. */
  requirePushedAuthorizationRequests: z.boolean().catch(false),
  /** RFC 9101 §10.5: the client's authorization requests come as signed request objects only. */
  requireSignedRequestObject: z.boolean().catch(false),
  /** Front-channel logout (OpenID Connect Front-Channel Logout 1.0): the address loaded at a browser logout. */
  frontchannelLogoutUri: z.string().optional().catch(undefined),
  /** The front-channel logout address gets `iss` and `sid`; true unless the configuration says false. */
  frontchannelLogoutSessionRequired: z.boolean().catch(true),
  restApiRole: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .catch(undefined),
  /** The one client authentication method accepted; absent: any the client has the material for. */
  tokenEndpointAuthMethod: z.enum(tokenEndpointAuthMethods).optional().catch(undefined),
  /** The client's public keys (JWK Set) or their address, for private_key_jwt. */
  jwks: z
    .object({ keys: z.array(z.record(z.string(), z.unknown())) })
    .optional()
    .catch(undefined),
  jwksUri: z.string().optional().catch(undefined),
});
export type ClientConfiguration = z.infer<typeof ClientConfiguration>;

/** An OAuth 2.0 client: an enabled OAuth20 protocol connection. */
export interface OAuthClient {
  /** The connection's id. */
  connectionId: string;
  name: string;
  clientId: string;
  configuration: ClientConfiguration;
  /** Scopes the client may ask for. */
  scopes: string[];
  dependencyConnectionNames: string[];
  /** Claim sets whose claim types the client receives besides the standard claims of its scopes. */
  claimSets: string[];
  /** Claim transformations applied to the client's claims, in order. */
  claimTransformations: string[];
  clientSecretHash: string | null;
  clientSecretEnc: string | null;
}

const clientCaches = new WeakMap<DbOrTx, Map<string, { at: number; client: Promise<OAuthClient | undefined> }>>();
const CLIENT_CACHE_ENTRIES = 10_000;

/**
 * The enabled OAuth20 client of the id. Read from the database and trusted for `clientCacheMs` (every instance
 * reads the database, so a change made anywhere applies everywhere within that time).
 */
export function findClient(db: DbOrTx, clientId: string, now = Date.now()): Promise<OAuthClient | undefined> {
  let cache = clientCaches.get(db);
  if (!cache) {
    cache = new Map();
    clientCaches.set(db, cache);
  }
  const hit = cache.get(clientId);
  if (hit && now - hit.at < runtimeDefaults.clientCacheMs) return hit.client;
  if (cache.size >= CLIENT_CACHE_ENTRIES) cache.clear();
  const client = readClient(db, clientId);
  cache.set(clientId, { at: now, client });
  client.catch(() => cache.delete(clientId));
  return client;
}

async function readClient(db: DbOrTx, clientId: string): Promise<OAuthClient | undefined> {
  const [row] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.clientId, clientId), eq(connections.pluginType, 'OAuth20')));
  if (!row?.enabled || row.connectionType !== 'Protocol') return undefined;
  return {
    connectionId: row.id,
    name: row.name,
    clientId,
    configuration: ClientConfiguration.parse(row.configuration ?? {}),
    scopes: row.scopes.length > 0 ? row.scopes : [...DEFAULT_CLIENT_SCOPES],
    dependencyConnectionNames: row.dependencyConnectionNames,
    claimSets: row.claimSets,
    claimTransformations: row.claimTransformations,
    clientSecretHash: row.clientSecretHash,
    clientSecretEnc: row.clientSecretEnc,
  };
}

export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
  /** A JWT the client signed (RFC 7523 §2.2), not verified yet; its `sub` is `clientId`. */
  assertion?: string;
  /**
   * How the client presented itself: the Authorization header, form fields, its id only, or a client assertion
   * (private_key_jwt or client_secret_jwt, told apart by the assertion's `alg`).
   */
  method: 'client_secret_basic' | 'client_secret_post' | 'none' | 'client_assertion';
}

/** RFC 6749 §2.3.1: the basic header holds form-encoded `client_id:client_secret`. */
function decodeBasic(header: string): { clientId: string; clientSecret: string } {
  const decoded = Buffer.from(header.slice('basic '.length).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new InvalidClient('the Authorization header does not hold client credentials');
  const formDecode = (v: string) => {
    if (!v.includes('%') && !v.includes('+')) return v;
    try {
      return decodeURIComponent(v.replace(/\+/g, ' '));
    } catch {
      throw new InvalidClient('the Authorization header does not hold client credentials');
    }
  };
  return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
}

export function usesBasicAuth(authorization: string | undefined): boolean {
  return /^basic\s/i.test(authorization ?? '');
}

/** Reads the client's credentials from the basic header, the form or a client assertion; one method only. */
export function readClientCredentials(authorization: string | undefined, form: URLSearchParams): ClientCredentials {
  const formId = form.get('client_id') ?? undefined;
  const formSecret = form.get('client_secret') ?? undefined;
  if (usesBasicAuth(authorization)) {
    const basic = decodeBasic(authorization!);
    if (formSecret !== undefined || hasClientAssertion(form)) {
      throw new InvalidRequest('use one client authentication method, not two');
    }
    if (formId !== undefined && formId !== basic.clientId)
      throw new InvalidRequest('client_id differs from the header');
    return { ...basic, method: 'client_secret_basic' };
  }
  if (hasClientAssertion(form)) {
    if (formSecret !== undefined) throw new InvalidRequest('use one client authentication method, not two');
    return { ...readClientAssertion(form), method: 'client_assertion' };
  }
  if (!formId) throw new InvalidClient('client_id is required');
  if (formSecret !== undefined) return { clientId: formId, clientSecret: formSecret, method: 'client_secret_post' };
  return { clientId: formId, method: 'none' };
}

/** What client authentication needs of the application context. */
export type ClientAuthContext = Pick<AppContext, 'db' | 'box' | 'baseUrl' | 'logger'>;

/**
 * Finds the client and checks its secret (public clients have none) or its assertion (`verifyClientAssertion`); a
 * client with a `tokenEndpointAuthMethod` must have used that method. Throws InvalidClient.
 */
export async function authenticateClient(ctx: ClientAuthContext, credentials: ClientCredentials): Promise<OAuthClient> {
  const client = await findClient(ctx.db, credentials.clientId);
  if (!client) throw new InvalidClient('unknown client');
  if (credentials.assertion !== undefined) {
    await verifyClientAssertion(ctx, client, credentials.assertion, () => openedSecret(ctx.box, client));
    return client;
  }
  const required = client.configuration.tokenEndpointAuthMethod;
  if (required !== undefined && required !== credentials.method) {
    throw new InvalidClient(
      credentials.method === 'none'
        ? `the client must authenticate with ${required}`
        : `the client authenticates with ${required}, not ${credentials.method}`,
    );
  }
  if (client.configuration.publicClient) return client;
  if (credentials.clientSecret === undefined) throw new InvalidClient('the client must authenticate');
  if (!secretMatches(ctx.box, client, credentials.clientSecret))
    throw new InvalidClient('client authentication failed');
  return client;
}

/** Sealed secrets opened once per client object (a client object lives `clientCacheMs`). */
const opened = new WeakMap<OAuthClient, string | null>();

/** The client's secret when it is kept sealed (a secret kept as a digest cannot be had); opened once per object. */
export function openedSecret(box: SecretBox, client: OAuthClient): string | undefined {
  if (!client.clientSecretEnc) return undefined;
  let secret = opened.get(client);
  if (secret === undefined) {
    try {
      secret = box.open(client.clientSecretEnc);
    } catch {
      secret = null;
    }
    opened.set(client, secret);
  }
  return secret ?? undefined;
}

/** The digest a presented secret must have, as bytes, made once per client object. */
const expectedDigests = new WeakMap<OAuthClient, Buffer | null>();

function expectedDigest(box: SecretBox, client: OAuthClient): Buffer | null {
  let digest = expectedDigests.get(client);
  if (digest === undefined) {
    const stored = client.clientSecretEnc ? openedSecret(box, client) : undefined;
    if (stored !== undefined) digest = sha256Bytes(stored);
    else if (!client.clientSecretEnc && client.clientSecretHash !== null)
      digest = Buffer.from(client.clientSecretHash, 'hex');
    else digest = null;
    expectedDigests.set(client, digest);
  }
  return digest;
}

/** Compares the SHA-256 digests of the presented and the stored secret in constant time. */
function secretMatches(box: SecretBox, client: OAuthClient, secret: string): boolean {
  const expected = expectedDigest(box, client);
  if (expected === null) return false;
  const presented = sha256Bytes(secret);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** The client's secret as an HMAC signing key, for clients that sign with HS256/384/512. */
export function hmacSecretOf(box: SecretBox, client: OAuthClient): string | undefined {
  if (!isHmacAlgorithm(client.configuration.signingAlgorithm)) return undefined;
  return openedSecret(box, client);
}

/** Throws UnauthorizedClient unless the client's configuration allows the grant type. */
export function ensureGrantAllowed(client: OAuthClient, grantType: string): void {
  if (!client.configuration.allowedGrantTypes.includes(grantType)) {
    throw new UnauthorizedClient(`the client may not use the ${grantType} grant`);
  }
}

/** The value when it is an absolute http or https address (a client's logout addresses); undefined otherwise. */
export function httpAddress(value: unknown): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  return /^https?:$/.test(new URL(value).protocol) ? value : undefined;
}
