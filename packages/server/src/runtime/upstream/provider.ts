import { eq } from 'drizzle-orm';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { AppContext } from '../../context.js';
import { connections } from '../../db/schema/index.js';
import { runtimeDefaults } from '../defaults.js';

/** An upstream OpenID Connect provider (a GenericOidcProvider authentication connection), ready to use. */
export interface UpstreamProvider {
  connectionId: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string[];
  usePkce: boolean;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint?: string;
  /** Its RP-Initiated Logout endpoint, when its discovery document names one. */
  endSessionEndpoint?: string;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

/** An upstream provider answered with an error (or could not be reached): log event 4111. */
export class UpstreamError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'UpstreamError';
  }
}

const metadataCache = new Map<string, { at: number; value: Promise<Record<string, unknown>> }>();
const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** The provider's discovery document, read at most every five minutes per issuer. */
function discover(issuer: string): Promise<Record<string, unknown>> {
  const hit = metadataCache.get(issuer);
  if (hit && Date.now() - hit.at < 300_000) return hit.value;
  const value = (async () => {
    const response = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new UpstreamError('server_error', `discovery answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  })();
  metadataCache.set(issuer, { at: Date.now(), value });
  value.catch(() => metadataCache.delete(issuer));
  return value;
}

/** The provider of a GenericOidcProvider connection, its client secret opened. */
export async function upstreamProvider(
  ctx: Pick<AppContext, 'db' | 'box'>,
  connectionId: string,
): Promise<UpstreamProvider> {
  const [row] = await ctx.db.select().from(connections).where(eq(connections.id, connectionId));
  if (row?.pluginType !== 'GenericOidcProvider' || !row.enabled) {
    throw new UpstreamError('server_error', 'the connection is not an enabled GenericOidcProvider');
  }
  const config = row.configuration;
  const issuer = String(config.issuer ?? '');
  let metadata: Record<string, unknown>;
  try {
    metadata = await discover(issuer);
  } catch (error) {
    throw error instanceof UpstreamError ? error : new UpstreamError('temporarily_unavailable', String(error));
  }
  const jwksUri = String(metadata.jwks_uri ?? '');
  let jwks = jwksCache.get(jwksUri);
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(jwksUri));
    jwksCache.set(jwksUri, jwks);
  }
  return {
    connectionId: row.id,
    name: row.name,
    issuer: String(metadata.issuer ?? issuer),
    clientId: String(config.clientId ?? ''),
    ...(row.clientSecretEnc ? { clientSecret: ctx.box.open(row.clientSecretEnc) } : {}),
    scopes: Array.isArray(config.scopes) ? config.scopes.map(String) : ['openid', 'profile', 'email'],
    usePkce: config.usePkce !== false,
    authorizationEndpoint: String(metadata.authorization_endpoint ?? ''),
    tokenEndpoint: String(metadata.token_endpoint ?? ''),
    ...(typeof metadata.userinfo_endpoint === 'string' ? { userinfoEndpoint: metadata.userinfo_endpoint } : {}),
    ...(typeof metadata.end_session_endpoint === 'string' ? { endSessionEndpoint: metadata.end_session_endpoint } : {}),
    jwks,
  };
}

/** What a redeemed code gives: the person's claims and the ID token as issued (the hint for logout there). */
export interface RedeemedCode {
  claims: JWTPayload;
  idToken: string;
}

/**
 * The upstream's claims for a code: the code exchanged, the ID token verified (issuer, audience, nonce), completed
 * from userinfo when the ID token lacks the e-mail address.
 */
export async function redeemCode(
  provider: UpstreamProvider,
  input: { code: string; redirectUri: string; verifier?: string | undefined; nonce: string },
): Promise<RedeemedCode> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
  });
  if (input.verifier) form.set('code_verifier', input.verifier);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (provider.clientSecret !== undefined) {
    const encode = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
    headers.authorization = `Basic ${Buffer.from(`${encode(provider.clientId)}:${encode(provider.clientSecret)}`).toString('base64')}`;
  } else {
    form.set('client_id', provider.clientId);
  }
  let body: Record<string, unknown>;
  try {
    const response = await fetch(provider.tokenEndpoint, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
    body = (await response.json()) as Record<string, unknown>;
    if (!response.ok) {
      throw new UpstreamError(
        String(body.error ?? 'server_error'),
        String(body.error_description ?? `token endpoint answered ${response.status}`),
      );
    }
  } catch (error) {
    throw error instanceof UpstreamError ? error : new UpstreamError('temporarily_unavailable', String(error));
  }
  if (typeof body.id_token !== 'string')
    throw new UpstreamError('invalid_response', 'the token response has no ID token');
  let idClaims: JWTPayload;
  try {
    const { payload } = await jwtVerify(body.id_token, provider.jwks, {
      issuer: provider.issuer,
      audience: provider.clientId,
      clockTolerance: runtimeDefaults.clockSkew,
    });
    if (payload.nonce !== input.nonce) throw new Error('the nonce differs');
    idClaims = payload;
  } catch (error) {
    throw new UpstreamError('invalid_id_token', `the ID token does not verify: ${(error as Error).message}`);
  }
  // Providers may leave the scope's claims out of the ID token when they issue an access token: ask userinfo.
  if (idClaims.email === undefined && provider.userinfoEndpoint && typeof body.access_token === 'string') {
    const more = await userinfo(provider.userinfoEndpoint, body.access_token);
    if (more.sub === idClaims.sub) return { claims: { ...more, ...idClaims }, idToken: body.id_token };
  }
  return { claims: idClaims, idToken: body.id_token };
}

async function userinfo(endpoint: string, accessToken: string): Promise<JWTPayload> {
  try {
    const response = await fetch(endpoint, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new UpstreamError('invalid_token', `userinfo answered ${response.status}`);
    return (await response.json()) as JWTPayload;
  } catch (error) {
    throw error instanceof UpstreamError ? error : new UpstreamError('temporarily_unavailable', String(error));
  }
}
