import { z } from 'zod';
import { Authenticator, Consent, Guid, Name, RefreshToken } from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

// A user's refresh tokens, second-factor authenticators and consents (all under /users, tag Users).
const tag = 'Users';
const group = 'users';
const userQuery = z.object({ userId: Guid });
const userConnectionQuery = userQuery.extend({ connectionName: Name });

export const Users_GetAllRefreshToken = op({
  operationId: 'Users_GetAllRefreshToken',
  method: 'GET',
  path: '/api/rest/v2/users/refreshtoken',
  summary: 'List the valid refresh tokens of a user.',
  tag,
  role: 'Observer',
  query: userQuery,
  list: {
    kind: 'list',
    sortable: ['creationDate', 'expirationDate', 'refreshTokenExpirationDate'],
    defaultSort: 'creationDate',
  },
  response: z.array(RefreshToken),
  statuses: statuses(404),
  cli: { group, action: 'refresh-tokens' },
});

export const Users_DeleteRefreshToken = op({
  operationId: 'Users_DeleteRefreshToken',
  method: 'DELETE',
  path: '/api/rest/v2/users/refreshtoken',
  summary: 'Revoke a refresh token.',
  tag,
  role: 'Administrator',
  query: z.object({ refreshToken: z.string().min(1).max(4096) }),
  statuses: statuses(),
  cli: { group, action: 'delete-refresh-token' },
});

export const Users_GetAuthenticators = op({
  operationId: 'Users_GetAuthenticators',
  method: 'GET',
  path: '/api/rest/v2/users/authenticators',
  summary: 'List the second-factor authenticators a user may enrol from the profile page.',
  tag,
  role: 'Observer',
  query: userQuery,
  response: z.array(Authenticator),
  statuses: statuses(404),
  cli: { group, action: 'authenticators' },
});

export const Users_ResetAuthenticator = op({
  operationId: 'Users_ResetAuthenticator',
  method: 'DELETE',
  path: '/api/rest/v2/users/resetauthenticator',
  summary: "Reset a user's authenticator of a second-factor connection.",
  tag,
  role: 'Administrator',
  query: userConnectionQuery,
  statuses: statuses(404),
  cli: { group, action: 'reset-authenticator' },
});

export const Users_OnboardAuthenticator = op({
  operationId: 'Users_OnboardAuthenticator',
  method: 'POST',
  path: '/api/rest/v2/users/onboardauthenticator',
  summary: 'Enrol an authenticator for a user with its secret code.',
  tag,
  role: 'Administrator',
  query: userConnectionQuery.extend({ secretCode: z.string().min(1).max(1024) }),
  statuses: statuses(404),
  cli: { group, action: 'onboard-authenticator' },
});

export const Users_GetConsent = op({
  operationId: 'Users_GetConsent',
  method: 'GET',
  path: '/api/rest/v2/users/consent',
  summary: 'List the consents a user gave to protocol connections.',
  tag,
  role: 'Observer',
  query: userQuery,
  list: { kind: 'list', sortable: ['protocolConnectionName'], defaultSort: 'protocolConnectionName' },
  response: z.array(Consent),
  statuses: statuses(404),
  cli: { group, action: 'consents' },
});

export const Users_DeleteConsent = op({
  operationId: 'Users_DeleteConsent',
  method: 'DELETE',
  path: '/api/rest/v2/users/consent',
  summary: "Delete a user's consent to a protocol connection.",
  tag,
  role: 'Administrator',
  query: userConnectionQuery,
  statuses: statuses(404),
  cli: { group, action: 'delete-consent' },
});

export const userCredentialOperations = [
  Users_GetAllRefreshToken,
  Users_DeleteRefreshToken,
  Users_GetAuthenticators,
  Users_ResetAuthenticator,
  Users_OnboardAuthenticator,
  Users_GetConsent,
  Users_DeleteConsent,
] as const;
