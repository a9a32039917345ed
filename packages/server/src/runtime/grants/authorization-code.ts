import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { sessions } from '../../db/schema/index.js';
import type { OAuthClient } from '../clients.js';
import { accessTokenIdOfCode, type CodeRow, revokeFamiliesOfCode, spendCode } from '../codes.js';
import { issueUserTokens } from '../issue-tokens.js';
import { InvalidGrant, InvalidRequest } from '../oauth-errors.js';
import { parseScope } from '../scopes.js';
import { revokeAccessToken } from '../token-verify.js';
import { type Grant, requiredParam } from './grant.js';

/**
 * RFC 6749 §4.1.3 with RFC 7636: spend the code (once), check it was issued to this client for this redirect
 * address and that the verifier matches its challenge, then issue the tokens. A code presented again revokes
 * what it was exchanged for.
 */
export const authorizationCodeGrant: Grant = async (ctx, client, form) => {
  const code = requiredParam(form, 'code');
  const { spent, reused } = await spendCode(ctx.db, code);
  if (reused) await revokeWhatCodeGave(ctx, client, reused);
  if (!spent) throw new InvalidGrant(reused ? 'the authorization code was already used' : 'unknown authorization code');
  checkCode(client, spent, form);
  return issueUserTokens(ctx, {
    client,
    userId: spent.userId,
    scopes: parseScope(spent.scope),
    authTime: spent.authTime,
    sessionId: spent.sessionId,
    acr: spent.acr,
    amr: await amrOfSession(ctx, spent.sessionId),
    nonce: spent.nonce,
    accessTokenId: accessTokenIdOfCode(spent.codeHash),
    refreshClaims: { code: spent.codeHash },
  });
};

/** How the person signed in (`amr`), from the session the code was issued in. */
async function amrOfSession(ctx: AppContext, sessionId: string | null): Promise<string[]> {
  if (!sessionId) return [];
  const [row] = await ctx.db.select({ amr: sessions.amr }).from(sessions).where(eq(sessions.id, sessionId));
  return row?.amr ?? [];
}

function checkCode(client: OAuthClient, row: CodeRow, form: URLSearchParams): void {
  if (row.clientId !== client.clientId) throw new InvalidGrant('the authorization code was issued to another client');
  if (row.expiresAt.getTime() <= Date.now()) throw new InvalidGrant('the authorization code has expired');
  const redirectUri = form.get('redirect_uri');
  if (redirectUri === null ? client.configuration.redirectUris.length !== 1 : redirectUri !== row.redirectUri) {
    throw new InvalidGrant('redirect_uri differs from the authorization request');
  }
  const verifier = form.get('code_verifier');
  if (row.codeChallenge === null) {
    if (verifier !== null)
      throw new InvalidGrant('code_verifier without a code_challenge in the authorization request');
    return;
  }
  if (verifier === null) throw new InvalidRequest('code_verifier is required');
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) throw new InvalidGrant('code_verifier is malformed');
  const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  if (challenge !== row.codeChallenge) throw new InvalidGrant('code_verifier does not match the code_challenge');
}

/** RFC 6749 §4.1.2: revoke the tokens issued from a code that is presented again. */
async function revokeWhatCodeGave(ctx: AppContext, client: OAuthClient, row: CodeRow): Promise<void> {
  await revokeFamiliesOfCode(ctx.db, row.codeHash);
  const lifetime = Math.max(client.configuration.accessTokenLifetime, 86_400);
  const expires = Math.floor(row.expiresAt.getTime() / 1000) + lifetime;
  await revokeAccessToken(ctx, accessTokenIdOfCode(row.codeHash), expires);
}
