import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { connections } from './connections.js';
import { users } from './directory.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One-time codes of the SMS and e-mail second factors: one live code per user and connection, kept only as a keyed
 * SHA-256 digest. A code is deleted when it is accepted; a new one replaces it.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => connections.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    /** Wrong codes entered against this code; at the maximum it is no longer accepted. */
    attempts: integer('attempts').notNull().default(0),
    /** When the code was sent (new codes are sent at most once per resend interval). */
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.connectionId] })],
);
