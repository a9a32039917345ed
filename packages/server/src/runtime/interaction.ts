import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../crypto/secret-box.js';
import { runtimeDefaults } from './defaults.js';

/**
 * A sign-in in progress, carried by the pages' forms sealed with the server's key (AES-256-GCM): nothing of it lives
 * in one instance's memory, and a browser can neither read nor change it.
 */
export interface Interaction {
  /** Random; CSRF tokens are bound to it. */
  id: string;
  kind: 'authorize' | 'device';
  /** The authorization request's parameters, validated again at every step. */
  params?: [string, string][];
  /** The device flow's user code. */
  userCode?: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** The session this interaction signed in: prompt=login, max_age and acr_values are satisfied for it. */
  authenticatedSession?: string;
  /** The user who proved the password in this interaction (the second-factor and password-change steps). */
  userId?: string;
  /** The username-and-password connection that user signed in through, by name. */
  connectionName?: string;
  /** The step the page of this interaction asks for. */
  step?: 'otp' | 'change-password';
  /** The authentication methods the user has passed so far (`pwd`, `otp`). */
  amr?: string[];
}

export function newInteraction(fields: Omit<Interaction, 'id' | 'expiresAt'>, now = Date.now()): Interaction {
  return {
    ...fields,
    id: randomBytes(16).toString('base64url'),
    expiresAt: now + runtimeDefaults.interactionLifetime * 1000,
  };
}

export function sealInteraction(box: SecretBox, interaction: Interaction): string {
  return box.seal(JSON.stringify(interaction));
}

/** The interaction, or undefined when the value was not sealed by this service or has expired. */
export function openInteraction(box: SecretBox, sealed: string | undefined, now = Date.now()): Interaction | undefined {
  if (!sealed || sealed.length > 16_384) return undefined;
  try {
    const value = JSON.parse(box.open(sealed)) as Interaction;
    if (typeof value.id !== 'string' || typeof value.expiresAt !== 'number' || value.expiresAt <= now) return undefined;
    return value;
  } catch {
    return undefined;
  }
}
