import type { Authenticator } from '@idsvc/shared';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db, DbOrTx } from '../db/client.js';
import { badRequest, notFound } from '../http/api-error.js';
import * as q from '../queries/authenticators.js';
import { userExists } from '../queries/consents.js';
import { audit } from './audit.js';
import type { WriteContext } from './write-context.js';

const entityType = 'authenticator';

/** Shortest accepted secret: 16 base32 characters, 80 bits (RFC 4226 §4 asks for at least 128, recommends 160). */
const MIN_SECRET_CHARS = 16;

/**
 * Whether `value` is base32 (RFC 4648 §6: A–Z and 2–7, optional `=` padding to a multiple of 8) of at least
 * 16 characters.
 */
export function isBase32Secret(value: string): boolean {
  const data = value.replace(/=+$/, '');
  if (!/^[A-Z2-7]+$/.test(data) || data.length < MIN_SECRET_CHARS) return false;
  // A final group of 1, 3 or 6 characters encodes no whole byte.
  if (![0, 2, 4, 5, 7].includes(data.length % 8)) return false;
  // Padding, when present, completes exactly the last group of 8.
  return data.length === value.length || value.length === Math.ceil(data.length / 8) * 8;
}

/** TOTP authenticators of users per second-factor connection; secrets are kept sealed and never shown. */
export function authenticatorService(db: Db, box: SecretBox) {
  async function mustFind(tx: DbOrTx, userId: string, connectionName: string) {
    if (!(await userExists(tx, userId))) throw notFound(`user ${userId} does not exist`);
    const connection = await q.findSecondFactorConnection(tx, connectionName);
    if (!connection) throw notFound(`second-factor connection ${connectionName} does not exist`);
    return connection;
  }

  return {
    /** The authenticators the user may enrol from the profile page, with the user's enrolment; 404 user. */
    async list(userId: string): Promise<Authenticator[]> {
      if (!(await userExists(db, userId))) throw notFound(`user ${userId} does not exist`);
      return (await q.profileAuthenticators(db, userId)).map(q.toAuthenticator);
    },

    /** Removes the user's authenticator of the connection; success also when none was enrolled. */
    reset(userId: string, connectionName: string, by: WriteContext): Promise<void> {
      return db.transaction(async (tx) => {
        const connection = await mustFind(tx, userId, connectionName);
        if (!(await q.deleteAuthenticator(tx, userId, connection.id))) return;
        await audit(tx, {
          ...by,
          operation: 'delete',
          entityType,
          entityKey: `${userId}/${connection.name}`,
          changes: { userId, connectionName: connection.name },
        });
      });
    },

    /** Enrols the user with a base32 TOTP secret (400 otherwise), replacing an earlier one. */
    async onboard(userId: string, connectionName: string, secretCode: string, by: WriteContext): Promise<void> {
      if (!isBase32Secret(secretCode)) {
        throw badRequest(
          `the secret code must be base32 (A-Z, 2-7, optional = padding) of at least ${MIN_SECRET_CHARS} characters`,
          [{ field: 'secretCode', message: 'must be base32 of at least 16 characters' }],
        );
      }
      return db.transaction(async (tx) => {
        const connection = await mustFind(tx, userId, connectionName);
        const earlier = await q.findAuthenticator(tx, userId, connection.id);
        await q.upsertAuthenticator(tx, userId, connection.id, box.seal(secretCode));
        await audit(tx, {
          ...by,
          operation: earlier ? 'update' : 'create',
          entityType,
          entityKey: `${userId}/${connection.name}`,
          changes: { userId, connectionName: connection.name },
        });
      });
    },
  };
}

export type AuthenticatorService = ReturnType<typeof authenticatorService>;
