import { z } from 'zod';

/**
 * How an OAuth20 client authenticates at the token, revocation, introspection and device authorization endpoints
 * (OpenID Connect Core §9, RFC 7523 §2.2).
 */
export const tokenEndpointAuthMethods = [
  'client_secret_basic',
  'client_secret_post',
  'client_secret_jwt',
  'private_key_jwt',
  'none',
] as const;
export const TokenEndpointAuthMethod = z.enum(tokenEndpointAuthMethods);
export type TokenEndpointAuthMethod = z.infer<typeof TokenEndpointAuthMethod>;

/** Host names of the loopback interface, where plain http is allowed (RFC 8252 §7.3). */
export const loopbackHosts: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** JWK members that hold private or secret key material (RFC 7518 §6.2.2, §6.3.2, §6.4.1; RFC 8037 §2). */
const privateJwkMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/** The public members each key type needs (RFC 7518 §6.2.1, §6.3.1; RFC 8037 §2). */
const publicJwkMembers: Record<string, readonly string[]> = {
  RSA: ['n', 'e'],
  EC: ['crv', 'x', 'y'],
  OKP: ['crv', 'x'],
};

/** A public key of a client (RSA, EC or OKP) as a JWK; private members are refused, naming the member. */
const PublicJwk = z.looseObject({ kty: z.string() }).superRefine((jwk, ctx) => {
  const members = jwk as Record<string, unknown>;
  for (const member of privateJwkMembers) {
    if (members[member] !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [member],
        message: 'is a private key member: give public keys only',
      });
    }
  }
  const needed = Object.hasOwn(publicJwkMembers, jwk.kty) ? publicJwkMembers[jwk.kty] : undefined;
  if (!needed) {
    ctx.addIssue({ code: 'custom', path: ['kty'], message: 'must be RSA, EC or OKP (a public signature key)' });
    return;
  }
  for (const member of needed) {
    if (typeof members[member] !== 'string' || members[member] === '') {
      ctx.addIssue({ code: 'custom', path: [member], message: `is required for kty ${jwk.kty}` });
    }
  }
});

/** A JWK Set (RFC 7517 §5) of public keys: those a client signs its private_key_jwt assertions with. */
export const PublicJwkSet = z.object({
  keys: z.array(PublicJwk).min(1, 'must hold at least one key').max(20, 'must hold at most 20 keys'),
});
export type PublicJwkSet = z.infer<typeof PublicJwkSet>;

/** The address of a client's JWK Set: https, or plain http on the loopback interface. */
export const JwksUri = z
  .string()
  .min(1, 'must not be empty')
  .max(2048, 'must be at most 2048 characters')
  .refine(
    (value) => {
      if (!URL.canParse(value) || value.includes('#')) return false;
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname));
    },
    { message: 'must be an https address without a fragment (plain http only on the loopback interface)' },
  );

/** The configuration fields the client authentication rules read. */
export interface ClientAuthenticationFields {
  publicClient: boolean;
  clientSecret?: string | undefined;
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod | undefined;
  jwks?: PublicJwkSet | undefined;
  jwksUri?: string | undefined;
}

/** Least client secret length (UTF-8 bytes) for client_secret_jwt: the key size of HS256 (RFC 7518 §3.2). */
export const clientSecretJwtMinBytes = 32;

/**
 * The rules across the client authentication fields: `jwks` or `jwksUri`, not both; private_key_jwt needs one of
 * them; a public client authenticates with none (so has no keys), and none is for public clients only; a client
 * secret given for client_secret_jwt is at least `clientSecretJwtMinBytes` long.
 */
export function checkClientAuthentication(config: ClientAuthenticationFields, ctx: z.RefinementCtx): void {
  const method = config.tokenEndpointAuthMethod;
  const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  if (config.jwks !== undefined && config.jwksUri !== undefined) issue('jwksUri', 'give jwks or jwksUri, not both');
  if (method === 'private_key_jwt' && config.jwks === undefined && config.jwksUri === undefined) {
    issue('jwks', 'is required (or jwksUri) when tokenEndpointAuthMethod is private_key_jwt');
  }
  if (config.publicClient) {
    if (method !== undefined && method !== 'none') issue('tokenEndpointAuthMethod', 'a public client uses none');
    for (const field of ['jwks', 'jwksUri'] as const) {
      if (config[field] !== undefined) issue(field, 'a public client does not authenticate, so has no keys');
    }
  } else if (method === 'none') {
    issue('tokenEndpointAuthMethod', 'none is for public clients (publicClient true)');
  }
  if (method === 'client_secret_jwt' && config.clientSecret !== undefined) {
    const length = new TextEncoder().encode(config.clientSecret).length;
    if (length < clientSecretJwtMinBytes) {
      issue('clientSecret', `client_secret_jwt needs a client secret of at least ${clientSecretJwtMinBytes} bytes`);
    }
  }
}
