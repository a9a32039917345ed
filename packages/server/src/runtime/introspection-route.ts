import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { USER_ID_CLAIM } from '../auth/roles.js';
import type { AppContext } from '../context.js';
import { users } from '../db/schema/index.js';
import { clientRequest, noStoreJson } from './client-request.js';
import type { OAuthClient } from './clients.js';
import { runtimePaths } from './defaults.js';
import { requiredParam } from './grants/grant.js';
import { findRefreshToken } from './refresh-tokens.js';
import { isAccessToken, isRevoked, verifyIssuedToken } from './token-verify.js';

type Introspection = Record<string, unknown> & { active: boolean };

/**
 * `POST /runtime/oauth2/introspect.idp` (RFC 7662), for authenticated clients only. Steps: authenticate the client
 * (a public client cannot), look the token up as a refresh token (the calling client's own) and as an access token
 * (any client's: resource servers introspect tokens of others), and answer `active` with its claims, or only
 * `{"active": false}` for anything expired, revoked, rotated, unknown or of a user who may no longer sign in.
 */
export function introspectionRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.introspection, (c) =>
    clientRequest(ctx, c, { confidentialOnly: true }, async (client, form) => {
      const token = requiredParam(form, 'token');
      const hint = form.get('token_type_hint');
      const order = hint === 'refresh_token' ? [refreshInfo, accessInfo] : [accessInfo, refreshInfo];
      for (const look of order) {
        const info = await look(ctx, client, token);
        if (info) return noStoreJson(info);
      }
      return noStoreJson({ active: false });
    }),
  );
  return app;
}

async function userMaySignIn(ctx: AppContext, userId: unknown): Promise<{ userName: string } | undefined> {
  if (typeof userId !== 'string' || !/^[0-9a-f-]{36}$/i.test(userId)) return undefined;
  const [user] = await ctx.db
    .select({ userName: users.userName, active: users.active, locked: users.locked })
    .from(users)
    .where(eq(users.id, userId));
  return user?.active && !user.locked ? user : undefined;
}

async function accessInfo(ctx: AppContext, _client: OAuthClient, token: string): Promise<Introspection | undefined> {
  const payload = await verifyIssuedToken(ctx, token);
  if (!payload || !isAccessToken(payload)) return undefined;
  if (await isRevoked(ctx, payload.jti)) return { active: false };
  const userId = payload[USER_ID_CLAIM];
  const user = userId === undefined ? undefined : await userMaySignIn(ctx, userId);
  if (userId !== undefined && !user) return { active: false };
  const { client_id, scope, exp, iat, nbf, sub, aud, iss, jti, acr } = payload;
  return {
    active: true,
    scope,
    client_id,
    ...(user ? { username: user.userName } : {}),
    token_type: 'Bearer',
    exp,
    iat,
    ...(nbf === undefined ? {} : { nbf }),
    sub,
    aud,
    iss,
    jti,
    ...(acr === undefined ? {} : { acr }),
  };
}

async function refreshInfo(ctx: AppContext, client: OAuthClient, token: string): Promise<Introspection | undefined> {
  const row = await findRefreshToken(ctx.db, token);
  if (!row) return undefined;
  const now = Date.now();
  const live =
    row.clientId === client.clientId &&
    !row.revokedAt &&
    !row.rotatedAt &&
    row.expiresAt.getTime() > now &&
    row.familyExpiresAt.getTime() > now;
  const user = row.userId === null ? undefined : await userMaySignIn(ctx, row.userId);
  if (!live || (row.userId !== null && !user)) return { active: false };
  return {
    active: true,
    scope: row.scope,
    client_id: row.clientId,
    ...(user ? { username: user.userName } : {}),
    token_type: 'refresh_token',
    exp: Math.floor(row.expiresAt.getTime() / 1000),
    iat: Math.floor(row.createdAt.getTime() / 1000),
    sub: row.userId ?? row.clientId,
  };
}
