import {
  Users_DeleteConsent,
  Users_DeleteRefreshToken,
  Users_GetAllRefreshToken,
  Users_GetAuthenticators,
  Users_GetConsent,
  Users_OnboardAuthenticator,
  Users_ResetAuthenticator,
} from '@idsvc/shared';
import { handle } from './handler.js';

/** A user's refresh tokens, consents and second-factor authenticators. */
export const userExtraHandlers = [
  handle(Users_GetAllRefreshToken, ({ query, list, services }) => services.userTokens.list(query.userId, list)),
  handle(Users_DeleteRefreshToken, ({ query, services, by }) => services.userTokens.revoke(query.refreshToken, by)),
  handle(Users_GetAuthenticators, ({ query, services }) => services.authenticators.list(query.userId)),
  handle(Users_ResetAuthenticator, ({ query, services, by }) =>
    services.authenticators.reset(query.userId, query.connectionName, by),
  ),
  handle(Users_OnboardAuthenticator, ({ query, services, by }) =>
    services.authenticators.onboard(query.userId, query.connectionName, query.secretCode, by),
  ),
  handle(Users_GetConsent, ({ query, list, services }) => services.consents.list(query.userId, list)),
  handle(Users_DeleteConsent, ({ query, services, by }) =>
    services.consents.delete(query.userId, query.connectionName, by),
  ),
];
