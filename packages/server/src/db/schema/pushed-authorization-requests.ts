import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Pushed authorization requests (RFC 9126): the parameters a client pushed, kept under the SHA-256 digest (hex) of
 * the random part of their `request_uri` (the value itself is never stored) until they are used, once, or expire.
 */
export const pushedAuthorizationRequests = pgTable(
  'pushed_authorization_requests',
  {
    requestUriHash: text('request_uri_hash').primaryKey(),
    /** The client that pushed them: only its authorization requests may use them. */
    clientId: text('client_id').notNull(),
    /** The authorization request's parameters as name–value pairs, client_id among them. */
    params: jsonb('params').$type<[string, string][]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('pushed_authorization_requests_expires').on(t.expiresAt)],
);
