import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Upstream SAML 2.0 sign-ins under way: the sealed sign-in (the authorization request to go on with, the
 * AuthnRequest it answers, the browser) kept here while the RelayState carries only its id, since SAML's RelayState
 * may hold no more than 80 bytes (SAML 2.0 Bindings §3.4.3). Kept until the sign-in expires.
 */
export const samlRelayStates = pgTable(
  'saml_relay_states',
  {
    id: text('id').primaryKey(),
    sealed: text('sealed').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('saml_relay_states_expires').on(t.expiresAt)],
);
