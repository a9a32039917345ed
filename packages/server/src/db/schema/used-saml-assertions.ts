import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { connections } from './connections.js';

/**
 * The IDs of the assertions accepted from upstream SAML 2.0 identity providers (and WS-Federation services), per
 * connection, kept until the assertion could no longer be accepted (its latest NotOnOrAfter plus the allowed clock
 * skew): a bearer assertion is accepted once (SAML 2.0 Profiles §4.1.4.5). The `jti` of an upstream OpenID Connect
 * provider's logout token is kept here too, per GenericOidcProvider connection, until the token would be refused
 * as too old.
 */
export const usedSamlAssertions = pgTable(
  'used_saml_assertions',
  {
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => connections.id, { onDelete: 'cascade' }),
    assertionId: text('assertion_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.assertionId] }),
    index('used_saml_assertions_expires').on(t.expiresAt),
  ],
);
