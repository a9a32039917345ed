import { z } from 'zod';
import { Guid, OffboardInput, OffboardResult } from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'UserSelfService';
const group = 'selfservice';
const idParams = z.object({ userId: Guid });

export const UserSelfService_ResetPassword = op({
  operationId: 'UserSelfService_ResetPassword',
  method: 'POST',
  path: '/api/rest/v2/userselfservice/{userId}/resetpassword',
  summary: 'Mail a user a link to set a new password.',
  tag,
  role: 'Administrator',
  params: idParams,
  statuses: statuses(400, 404),
  cli: { group, action: 'reset-password' },
});

export const UserSelfService_UserOffboard = op({
  operationId: 'UserSelfService_UserOffboard',
  method: 'POST',
  path: '/api/rest/v2/userselfservice/{userId}/offboard',
  summary: 'Start offboarding a user; answers the link that offboards the user.',
  tag,
  role: 'Administrator',
  params: idParams,
  body: OffboardInput.optional(),
  response: OffboardResult,
  statuses: statuses(400, 404),
  cli: { group, action: 'offboard' },
});

export const selfServiceOperations = [UserSelfService_ResetPassword, UserSelfService_UserOffboard] as const;
