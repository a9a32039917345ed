import { randomSecret, sha256 } from '../crypto/digest.js';
import { hashPassword } from '../crypto/password.js';
import type { Db } from '../db/client.js';
import {
  type ActionKind,
  consumeActionToken,
  deleteActionToken,
  type EndedSession,
  findUsableToken,
  insertActionToken,
  retireOtherTokens,
  signOutEverywhere,
} from '../queries/action-tokens.js';
import { findUserById, type UserRow, updateUserRow } from '../queries/users.js';
import { audit } from './audit.js';
import type { WriteContext } from './write-context.js';

/** The hosted page each kind of link opens (relative to the base address). */
export const actionLinkPaths: Record<ActionKind, string> = {
  reset: '/runtime/ResetPassword/SetPassword',
  offboard: '/runtime/UserSelfService/Offboard',
};

const hour = 3_600_000;

/** How long a link works: a day to set a password, a week to confirm an offboarding. */
export const actionLinkLifetimes: Record<ActionKind, number> = { reset: 24 * hour, offboard: 7 * 24 * hour };

const auditTypes: Record<ActionKind, string> = { reset: 'passwordResetLink', offboard: 'offboardLink' };

export interface ActionLink {
  kind: ActionKind;
  url: string;
  expiresAt: Date;
  tokenHash: string;
}

export interface ActionLinkOptions {
  /**
   * Called with the sessions a used link ended, once its change is committed: the runtime's pages tell the clients
   * of those sessions (back-channel logout). Must not throw nor wait.
   */
  sessionsEnded?: (ended: EndedSession[]) => void;
}

/**
 * One-time links mailed to users: a random secret in the link, only its SHA-256 digest in `action_tokens`. A link
 * works once, until it expires; opening the page does not use it, submitting the page's form does.
 */
export function actionLinkService(db: Db, baseUrl: () => string, options: ActionLinkOptions = {}) {
  /** Tells of the sessions a committed change ended; the change's result is returned as it was. */
  const ended = (result: { done: boolean; sessions: EndedSession[] }): boolean => {
    if (result.done && result.sessions.length > 0) options.sessionsEnded?.(result.sessions);
    return result.done;
  };

  /** The user a link of the kind is good for, while it is unused and unexpired. */
  async function userOf(kind: ActionKind, token: string): Promise<UserRow | undefined> {
    if (!token) return undefined;
    const userId = await findUsableToken(db, sha256(token), kind);
    return userId ? findUserById(db, userId) : undefined;
  }

  return {
    userOf,

    /** Creates a link for the user (audited, the secret left out). */
    async create(
      kind: ActionKind,
      userId: string,
      by: WriteContext,
      note?: Record<string, unknown>,
    ): Promise<ActionLink> {
      const token = randomSecret(32);
      const tokenHash = sha256(token);
      const expiresAt = new Date(Date.now() + actionLinkLifetimes[kind]);
      await db.transaction(async (tx) => {
        await insertActionToken(tx, { tokenHash, kind, userId, expiresAt });
        await audit(tx, {
          ...by,
          operation: 'create',
          entityType: auditTypes[kind],
          entityKey: userId,
          changes: { expiresAt: expiresAt.toISOString(), ...note },
        });
      });
      const url = `${baseUrl()}${actionLinkPaths[kind]}?token=${encodeURIComponent(token)}`;
      return { kind, url, expiresAt, tokenHash };
    },

    /** Removes a link that never reached its user (its mail was not sent). */
    discard: (link: ActionLink) => deleteActionToken(db, link.tokenHash),

    /**
     * Sets the password through a reset link and uses the link: argon2id hash; forced reset, expiry, lockout and
     * failure counts cleared; other reset links retired; refresh tokens revoked and sessions ended (`sessionsEnded`
     * told of them once committed). False when the link is unknown, used or expired.
     */
    async setPassword(token: string, password: string, requestId?: string): Promise<boolean> {
      if (!token) return false;
      const passwordHash = await hashPassword(password);
      const tokenHash = sha256(token);
      const result = await db.transaction(async (tx) => {
        const userId = await consumeActionToken(tx, tokenHash, 'reset');
        if (!userId) return { done: false, sessions: [] };
        await retireOtherTokens(tx, userId, 'reset', tokenHash);
        await updateUserRow(tx, userId, {
          passwordHash,
          passwordChangedAt: new Date(),
          passwordExpiresAt: null,
          forceResetPassword: false,
          locked: false,
          lockedAt: null,
          failedLoginCount: 0,
          failedPasswordChangeCount: 0,
        });
        const signedOut = await signOutEverywhere(tx, userId);
        await audit(tx, {
          actor: `user:${userId}`,
          requestId,
          operation: 'update',
          entityType: 'user',
          entityKey: userId,
          changes: { password: 'set through a reset link' },
        });
        return { done: true, sessions: signedOut.sessions };
      });
      return ended(result);
    },

    /**
     * Offboards the user of an offboarding link and uses the link: the user is deactivated, its refresh tokens
     * revoked, its sessions ended (`sessionsEnded` told of them once committed) and its other links retired. False
     * when the link is unknown, used or expired.
     */
    async offboard(token: string, requestId?: string): Promise<boolean> {
      if (!token) return false;
      const tokenHash = sha256(token);
      const result = await db.transaction(async (tx) => {
        const userId = await consumeActionToken(tx, tokenHash, 'offboard');
        if (!userId) return { done: false, sessions: [] };
        await retireOtherTokens(tx, userId, 'offboard', tokenHash);
        await retireOtherTokens(tx, userId, 'reset', tokenHash);
        await updateUserRow(tx, userId, { active: false });
        const signedOut = await signOutEverywhere(tx, userId);
        await audit(tx, {
          actor: `user:${userId}`,
          requestId,
          operation: 'update',
          entityType: 'user',
          entityKey: userId,
          changes: { active: false, offboarded: true },
        });
        return { done: true, sessions: signedOut.sessions };
      });
      return ended(result);
    },
  };
}

export type ActionLinkService = ReturnType<typeof actionLinkService>;
