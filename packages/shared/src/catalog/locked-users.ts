import { z } from 'zod';
import { UnlockUserInput, User } from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';
import { userSortable } from './users.js';

const tag = 'LockedUsers';
const group = 'lockedusers';

export const Users_GetAllLockedUsers = op({
  operationId: 'Users_GetAllLockedUsers',
  method: 'GET',
  path: '/api/rest/v2/lockedusers',
  summary: 'List locked users.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable: userSortable, defaultSort: 'userName' },
  response: z.array(User),
  statuses: statuses(404),
  cli: { group, action: 'list' },
});

export const Users_Patch = op({
  operationId: 'Users_Patch',
  method: 'PATCH',
  path: '/api/rest/v2/lockedusers',
  summary: 'Unlock a locked user.',
  tag,
  role: 'Administrator',
  body: UnlockUserInput,
  statuses: statuses(404, 409),
  cli: { group, action: 'unlock' },
});

export const lockedUserOperations = [Users_GetAllLockedUsers, Users_Patch] as const;
