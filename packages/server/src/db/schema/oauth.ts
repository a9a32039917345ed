import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { connections } from './connections.js';
import { users } from './directory.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** Token signing keys; private halves encrypted with the server's secret key. */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  alg: text('alg').notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  privateKeyEnc: text('private_key_enc').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
  /** Signs from this instant (published before it). */
  activatesAt: at('activates_at').notNull(),
  /** Stops signing at this instant, stays published until `expiresAt`. */
  retiresAt: at('retires_at'),
  expiresAt: at('expires_at'),
});

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    familyId: uuid('family_id').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    scope: text('scope').notNull().default(''),
    sessionId: uuid('session_id'),
    claims: jsonb('claims').$type<Record<string, unknown>>(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    familyExpiresAt: at('family_expires_at').notNull(),
    rotatedAt: at('rotated_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    index('refresh_tokens_user').on(t.userId),
    index('refresh_tokens_family').on(t.familyId),
    index('refresh_tokens_session').on(t.sessionId),
    index('refresh_tokens_expires').on(t.expiresAt),
  ],
);

export const authorizationCodes = pgTable(
  'authorization_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    clientId: text('client_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id'),
    redirectUri: text('redirect_uri').notNull(),
    scope: text('scope').notNull(),
    nonce: text('nonce'),
    codeChallenge: text('code_challenge'),
    codeChallengeMethod: text('code_challenge_method'),
    authTime: at('auth_time').notNull(),
    acr: text('acr'),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('authorization_codes_expires').on(t.expiresAt)],
);

export const deviceCodes = pgTable('device_codes', {
  deviceCodeHash: text('device_code_hash').primaryKey(),
  userCode: text('user_code').notNull().unique(),
  clientId: text('client_id').notNull(),
  scope: text('scope').notNull(),
  status: text('status').notNull().default('pending'),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  interval: integer('interval').notNull().default(5),
  lastPolledAt: at('last_polled_at'),
  createdAt: at('created_at').notNull().defaultNow(),
  expiresAt: at('expires_at').notNull(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authTime: at('auth_time').notNull(),
    acr: text('acr'),
    amr: jsonb('amr').$type<string[]>().notNull().default([]),
    clients: jsonb('clients').$type<string[]>().notNull().default([]),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    endedAt: at('ended_at'),
    /** The upstream sign-in the session was started by (connection, protocol, what logout there needs), sealed. */
    upstream: text('upstream'),
    /**
     * SHA-256 (hex) of the upstream connection id, NUL and the person there (SAML NameID, OpenID Connect `sub`), and
     * of the connection id, NUL and the session there (SAML SessionIndex, OpenID Connect `sid`): how the provider's
     * back-channel logout finds the sessions it ends.
     */
    upstreamSubjectKey: text('upstream_subject_key'),
    upstreamSessionKey: text('upstream_session_key'),
  },
  (t) => [
    index('sessions_user').on(t.userId),
    index('sessions_expires').on(t.expiresAt),
    index('sessions_upstream_subject').on(t.upstreamSubjectKey),
    index('sessions_upstream_session').on(t.upstreamSessionKey),
  ],
);

export const consents = pgTable(
  'consents',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => connections.id, { onDelete: 'cascade' }),
    scopes: jsonb('scopes').$type<string[]>().notNull().default([]),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.connectionId] }), index('consents_connection').on(t.connectionId)],
);

export const authenticators = pgTable(
  'authenticators',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => connections.id, { onDelete: 'cascade' }),
    secretEnc: text('secret_enc').notNull(),
    enrolledAt: at('enrolled_at').notNull().defaultNow(),
    /** TOTP time step of the last accepted code: a code is accepted once (no replay within its window). */
    lastTimeStep: integer('last_time_step'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.connectionId] })],
);

/** One-time links mailed to users: password reset, offboarding. Stored as SHA-256 digests. */
export const actionTokens = pgTable('action_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  kind: text('kind').notNull(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: at('created_at').notNull().defaultNow(),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
});

/** Revoked JWT access tokens (RFC 7009), kept until they would have expired. */
export const revokedAccessTokens = pgTable(
  'revoked_access_tokens',
  {
    jti: text('jti').primaryKey(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('revoked_access_tokens_expires').on(t.expiresAt)],
);
