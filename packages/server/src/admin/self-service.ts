import { UserSelfService_ResetPassword, UserSelfService_UserOffboard } from '@idsvc/shared';
import { handle } from './handler.js';

export const selfServiceHandlers = [
  handle(UserSelfService_ResetPassword, ({ params, services, by }) =>
    services.selfService.resetPassword(params.userId, by),
  ),
  handle(UserSelfService_UserOffboard, ({ params, body, services, by }) =>
    services.selfService.offboard(params.userId, body, by),
  ),
];
