import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppContext } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { sessions, users } from '../db/schema/index.js';
import { type BackchannelContext, type EndedSession, notifySessionsEnded } from './backchannel-logout.js';
import { runtimeDefaults } from './defaults.js';
import { runtimeSettings } from './settings.js';

/** A browser session (multi SSO: one session serves every client the person signs in to). */
export interface BrowserSession {
  id: string;
  userId: string;
  userName: string;
  authTime: Date;
  acr: string | null;
  amr: string[];
  clients: string[];
  expiresAt: Date;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The session id the cookie holds (the cookie holds nothing else), when it looks like one. */
export function sessionIdOf(c: Context): string | undefined {
  const value = getCookie(c, runtimeDefaults.sessionCookie);
  return value && uuidPattern.test(value) ? value : undefined;
}

/** The live session of the id: not ended, not expired, its user active and not locked. */
export async function findSession(db: DbOrTx, id: string | undefined): Promise<BrowserSession | undefined> {
  if (id === undefined) return undefined;
  const [row] = await db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      userName: users.userName,
      authTime: sessions.authTime,
      acr: sessions.acr,
      amr: sessions.amr,
      clients: sessions.clients,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, id),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, new Date()),
        eq(users.active, true),
        eq(users.locked, false),
      ),
    );
  return row;
}

/** The session of the request's cookie, if it is live. */
export function currentSession(ctx: Pick<AppContext, 'db'>, c: Context): Promise<BrowserSession | undefined> {
  return findSession(ctx.db, sessionIdOf(c));
}

export interface NewSession {
  userId: string;
  acr: string;
  amr: string[];
  /** A session this sign-in replaces (ended). */
  replaces?: string;
  /** The upstream sign-in that started the session, sealed (upstream/upstream-session.ts): for logout there. */
  upstream?: string;
  /**
   * Digests of the person and the session at the upstream provider (upstream/upstream-session-keys.ts): how its
   * back-channel logout finds the session.
   */
  upstreamSubjectKey?: string;
  upstreamSessionKey?: string;
}

/**
 * Starts a session (its id is random; the lifetime is system setup's) and sets the cookie. The session it replaces
 * ends, and the clients that one signed in to are told (back-channel logout).
 */
export async function startSession(ctx: BackchannelContext, c: Context, input: NewSession): Promise<string> {
  const { sessionLifetime } = await runtimeSettings(ctx);
  const id = randomUUID();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + sessionLifetime * 1000);
  let replaced: EndedSession | undefined;
  await ctx.db.transaction(async (tx) => {
    if (input.replaces) replaced = await endSessionRow(tx, input.replaces);
    await tx.insert(sessions).values({
      id,
      userId: input.userId,
      authTime: now,
      acr: input.acr,
      amr: input.amr,
      expiresAt,
      upstream: input.upstream ?? null,
      upstreamSubjectKey: input.upstreamSubjectKey ?? null,
      upstreamSessionKey: input.upstreamSessionKey ?? null,
    });
  });
  notifySessionsEnded(ctx, [replaced]);
  setCookie(c, runtimeDefaults.sessionCookie, id, {
    path: '/runtime',
    httpOnly: true,
    sameSite: 'Lax',
    secure: ctx.baseUrl().startsWith('https:'),
    expires: expiresAt,
  });
  return id;
}

/** Records that the session signed the person in to a client (for logout and the session's client list). */
export async function addClientToSession(db: DbOrTx, sessionId: string, clientId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ clients: sql`${sessions.clients} || ${JSON.stringify([clientId])}::jsonb` })
    .where(and(eq(sessions.id, sessionId), sql`not (${sessions.clients} @> ${JSON.stringify([clientId])}::jsonb)`));
}

/** Ends the session unless it has ended already; returns it when this call ended it. */
export async function endSessionRow(db: DbOrTx, id: string): Promise<EndedSession | undefined> {
  const [ended] = await db
    .update(sessions)
    .set({ endedAt: new Date() })
    .where(and(eq(sessions.id, id), isNull(sessions.endedAt)))
    .returning({ id: sessions.id, userId: sessions.userId, clients: sessions.clients });
  return ended;
}

/**
 * Ends the session of the request, removes the cookie, and tells the clients the session signed in to
 * (back-channel logout, without waiting for them). Returns the session when this call ended it (for front-channel
 * logout in the browser).
 */
export async function endSession(ctx: BackchannelContext, c: Context): Promise<EndedSession | undefined> {
  const id = sessionIdOf(c);
  const ended = id ? await endSessionRow(ctx.db, id) : undefined;
  deleteCookie(c, runtimeDefaults.sessionCookie, { path: '/runtime' });
  notifySessionsEnded(ctx, [ended]);
  return ended;
}
