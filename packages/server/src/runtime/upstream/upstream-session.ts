import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { sessions } from '../../db/schema/index.js';

export type UpstreamProtocol = 'oidc' | 'saml' | 'wsfed';
const protocols: readonly string[] = ['oidc', 'saml', 'wsfed'] satisfies UpstreamProtocol[];

/**
 * The upstream sign-in a session was started by, kept sealed on the session (`sessions.upstream`): the connection
 * and what signing out there needs (SAML 2.0: the NameID and SessionIndex; OpenID Connect: the upstream ID token,
 * sent back as id_token_hint).
 */
export interface UpstreamSignIn {
  connectionId: string;
  protocol: UpstreamProtocol;
  nameId?: string;
  nameIdFormat?: string;
  sessionIndex?: string;
  idToken?: string;
}

const optionalText = ['nameId', 'nameIdFormat', 'sessionIndex', 'idToken'] as const;

export function sealUpstreamSignIn(box: SecretBox, signIn: UpstreamSignIn): string {
  return box.seal(JSON.stringify(signIn));
}

/** The sealed upstream sign-in, or undefined when there is none or it is not one sealed by this service. */
export function openUpstreamSignIn(box: SecretBox, sealed: string | null | undefined): UpstreamSignIn | undefined {
  if (!sealed) return undefined;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(box.open(sealed)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof value.connectionId !== 'string' || !protocols.includes(String(value.protocol))) return undefined;
  const signIn: UpstreamSignIn = { connectionId: value.connectionId, protocol: value.protocol as UpstreamProtocol };
  for (const field of optionalText) {
    const text = value[field];
    if (typeof text === 'string' && text !== '') signIn[field] = text;
  }
  return signIn;
}

/** The upstream sign-in of a session, when it was started through an upstream provider. */
export async function sessionUpstream(
  ctx: Pick<AppContext, 'db' | 'box'>,
  sessionId: string,
): Promise<UpstreamSignIn | undefined> {
  const [row] = await ctx.db.select({ upstream: sessions.upstream }).from(sessions).where(eq(sessions.id, sessionId));
  return openUpstreamSignIn(ctx.box, row?.upstream);
}
