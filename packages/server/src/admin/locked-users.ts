import { Users_GetAllLockedUsers, Users_Patch } from '@idsvc/shared';
import { handle } from './handler.js';

export const lockedUserHandlers = [
  handle(Users_GetAllLockedUsers, ({ list, services }) => services.users.listLocked(list)),
  handle(Users_Patch, ({ body, services, by }) => services.users.unlock(body.userId, by)),
];
