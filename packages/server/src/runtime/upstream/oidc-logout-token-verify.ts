import { compactVerify, decodeJwt, decodeProtectedHeader, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import { audiencesOf } from '../../auth/received-jwt.js';
import type { AppContext } from '../../context.js';
import { oidcConnectionsOfIssuer } from '../../queries/oidc-connections.js';
import { recordUsedAssertion } from '../../queries/used-assertions.js';
import { runtimeDefaults } from '../defaults.js';
import { checkLogoutTokenClaims, LOGOUT_TOKEN_ALGORITHMS, logoutTokenHeaderProblem } from './oidc-logout-token.js';
import { UpstreamError, type UpstreamProvider, upstreamProvider } from './provider.js';

/** A logout token that is refused; `connection` names the connection, or the issuer when none was found. */
export class LogoutTokenRefused extends UpstreamError {
  constructor(
    description: string,
    readonly connection: string,
  ) {
    super('invalid_request', description);
    this.name = 'LogoutTokenRefused';
  }
}

/** A verified logout token: the provider it came from, and whom it signs out there. */
export interface VerifiedLogoutToken {
  provider: UpstreamProvider;
  subject?: string;
  session?: string;
}

type VerifyContext = Pick<AppContext, 'db' | 'box'>;

/**
 * The provider the token is for: of an enabled GenericOidcProvider connection whose issuer (as its discovery
 * document states it) is the token's `iss`, and whose client id is among the token's audiences. `refuse` makes the
 * error, naming the connection once one is known.
 */
async function addressedProvider(
  ctx: VerifyContext,
  claims: JWTPayload,
  refuse: (description: string, connection?: string) => LogoutTokenRefused,
): Promise<UpstreamProvider> {
  const issuer = typeof claims.iss === 'string' ? claims.iss : '';
  const ids = issuer ? await oidcConnectionsOfIssuer(ctx.db, issuer) : [];
  const unknown = () => refuse(`the logout token is issued by ${issuer || 'no one'}, not by a known provider`);
  if (ids.length === 0) throw unknown();
  const audiences = audiencesOf(claims);
  let unusable: UpstreamError | undefined;
  let ofIssuer: UpstreamProvider | undefined;
  for (const id of ids) {
    let provider: UpstreamProvider;
    try {
      provider = await upstreamProvider(ctx, id);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      unusable ??= error;
      continue;
    }
    if (provider.issuer !== issuer) continue;
    if (audiences.includes(provider.clientId)) return provider;
    ofIssuer ??= provider;
  }
  if (ofIssuer) throw refuse("the logout token is not addressed to this service's client there (aud)", ofIssuer.name);
  if (unusable) throw refuse(`the provider cannot be used: ${unusable.description}`);
  throw unknown();
}

/**
 * Verifies a logout token of an upstream OpenID Connect provider (OpenID Connect Back-Channel Logout 1.0 §2.6): a
 * JWS (not `none`, not HMAC), its issuer and audience an enabled GenericOidcProvider connection's, signed by a key of
 * that provider's JWKS (found by its discovery document, as at sign-in), its claims as `checkLogoutTokenClaims`
 * wants them, and its `jti` not used before with that connection (kept with the used SAML assertion ids until the
 * token would be too old). Throws LogoutTokenRefused.
 */
export async function verifyLogoutToken(ctx: VerifyContext, token: string): Promise<VerifiedLogoutToken> {
  let header: ProtectedHeaderParameters;
  let claims: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    claims = decodeJwt(token);
  } catch {
    throw new LogoutTokenRefused('the logout token is not a signed JWT', '');
  }
  const issuer = typeof claims.iss === 'string' ? claims.iss : '';
  const refuse = (description: string, connection = issuer) => new LogoutTokenRefused(description, connection);
  const problem = logoutTokenHeaderProblem(header);
  if (problem) throw refuse(problem);
  const provider = await addressedProvider(ctx, claims, refuse);
  const refused = (description: string) => refuse(description, provider.name);
  let payload: JWTPayload;
  try {
    const verified = await compactVerify(token, provider.jwks, { algorithms: [...LOGOUT_TOKEN_ALGORITHMS] });
    payload = JSON.parse(new TextDecoder().decode(verified.payload)) as JWTPayload;
  } catch (error) {
    throw refused(`the logout token does not verify: ${error instanceof Error ? error.message : String(error)}`);
  }
  const checked = checkLogoutTokenClaims(payload);
  if (typeof checked === 'string') throw refused(checked);
  const { skew, maxAge } = { skew: runtimeDefaults.clockSkew, maxAge: runtimeDefaults.upstreamLogoutTokenMaxAge };
  const fresh = await recordUsedAssertion(ctx.db, {
    connectionId: provider.connectionId,
    assertionId: checked.jti,
    expiresAt: new Date((checked.iat + maxAge + skew) * 1000),
  });
  if (!fresh) throw refused('the logout token was used before (jti)');
  return {
    provider,
    ...(checked.subject !== undefined ? { subject: checked.subject } : {}),
    ...(checked.session !== undefined ? { session: checked.session } : {}),
  };
}
