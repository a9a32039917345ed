import { Hono } from 'hono';
import type { AppContext } from '../context.js';
import { clientRequest } from './client-request.js';
import type { OAuthClient } from './clients.js';
import { runtimePaths } from './defaults.js';
import { requiredParam } from './grants/grant.js';
import { findRefreshToken, revokeFamily } from './refresh-tokens.js';
import { isAccessToken, revokeAccessToken, verifyIssuedToken } from './token-verify.js';

/**
 * `POST /runtime/oauth2/revoke.idp` (RFC 7009). Steps: authenticate the client, find the token (the hint first),
 * revoke it when it was issued to this client — a refresh token with its whole family, an access token by its
 * `jti` until it expires — and answer 200 whether or not the token was known.
 */
export function revocationRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.revocation, (c) =>
    clientRequest(ctx, c, {}, async (client, form) => {
      const token = requiredParam(form, 'token');
      const hint = form.get('token_type_hint');
      const order = hint === 'access_token' ? [revokeAccess, revokeRefresh] : [revokeRefresh, revokeAccess];
      for (const revoke of order) if (await revoke(ctx, client, token)) break;
      return new Response(null, { status: 200, headers: { 'Cache-Control': 'no-store' } });
    }),
  );
  return app;
}

async function revokeRefresh(ctx: AppContext, client: OAuthClient, token: string): Promise<boolean> {
  const row = await findRefreshToken(ctx.db, token);
  if (!row) return false;
  if (row.clientId === client.clientId) await revokeFamily(ctx.db, row.familyId);
  return true;
}

async function revokeAccess(ctx: AppContext, client: OAuthClient, token: string): Promise<boolean> {
  const payload = await verifyIssuedToken(ctx, token);
  if (!payload || !isAccessToken(payload) || typeof payload.jti !== 'string') return false;
  if (payload.client_id === client.clientId) await revokeAccessToken(ctx, payload.jti, payload.exp);
  return true;
}
