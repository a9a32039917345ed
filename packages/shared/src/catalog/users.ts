import { z } from 'zod';
import {
  BatchDeleteResult,
  Guid,
  GuidList,
  PatchBody,
  SearchQuery,
  User,
  UserInput,
  UserStatus,
  UserStatusList,
  UserUpdateInput,
} from '../schemas/index.js';
import { partialList, statuses } from './helpers.js';
import { op } from './op.js';
import { userCredentialOperations } from './user-credentials.js';

const tag = 'Users';
const group = 'users';
/** The spec's user sort fields; its stated default ("name") is the userName. */
export const userSortable = [
  'userName',
  'displayName',
  'active',
  'groups',
  'organization',
  'forceResetPasswordAfterFirstTimeLogin',
];
const idParams = z.object({ userId: Guid });
const sendPasswordEmail = z.object({ sendPasswordEmailToUser: z.stringbool().default(false) });

export const Users_GetAll = op({
  operationId: 'Users_GetAll',
  method: 'GET',
  path: '/api/rest/v2/users',
  summary: 'List users, optionally only those holding a claim (claimType, value); 404 when there are none.',
  tag,
  role: 'Observer',
  query: z.object({ claimType: z.string().max(1024).optional(), value: z.string().max(4096).optional() }),
  list: { kind: 'list', sortable: userSortable, defaultSort: 'userName' },
  response: z.array(User),
  statuses: statuses(404),
  cli: { group, action: 'list' },
});

export const Users_Post = op({
  operationId: 'Users_Post',
  method: 'POST',
  path: '/api/rest/v2/users',
  summary: 'Create a user; with sendPasswordEmailToUser=true a password link is mailed.',
  tag,
  role: 'Administrator',
  query: sendPasswordEmail,
  body: UserInput,
  response: User,
  statuses: statuses(400, 409),
  cli: { group, action: 'create' },
});

export const Users_Put = op({
  operationId: 'Users_Put',
  method: 'PUT',
  path: '/api/rest/v2/users',
  summary: 'Update a user, found by id; an oldPassword, when present, is checked first.',
  tag,
  role: 'Administrator',
  body: UserUpdateInput,
  response: User,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'update' },
});

export const Users_GetAllFilter = op({
  operationId: 'Users_GetAllFilter',
  method: 'GET',
  path: '/api/rest/v2/users/.filter',
  summary: 'List users matching a SCIM filter.',
  tag,
  role: 'Observer',
  list: { kind: 'filter', sortable: userSortable, defaultSort: 'userName' },
  response: partialList(User),
  statuses: statuses(400),
  cli: { group, action: 'filter' },
});

export const Users_DeleteMassUser = op({
  operationId: 'Users_DeleteMassUser',
  method: 'DELETE',
  path: '/api/rest/v2/users/.batch',
  summary: 'Delete several users by id; the answer names every user not deleted and why.',
  tag,
  role: 'Administrator',
  body: GuidList,
  response: BatchDeleteResult,
  statuses: statuses(400, 409),
  cli: { group, action: 'delete-many' },
});

export const Users_PostMassUser = op({
  operationId: 'Users_PostMassUser',
  method: 'POST',
  path: '/api/rest/v2/users/.batch',
  summary: 'Create several users, all or none.',
  tag,
  role: 'Administrator',
  query: sendPasswordEmail,
  body: z.array(UserInput).min(1),
  response: z.array(User),
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'create-many' },
});

export const Users_PutMassUser = op({
  operationId: 'Users_PutMassUser',
  method: 'PUT',
  path: '/api/rest/v2/users/.batch',
  summary: 'Update several users, all or none.',
  tag,
  role: 'Administrator',
  body: z.array(UserUpdateInput).min(1),
  response: z.array(User),
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'update-many' },
});

export const Users_PutMassStatus = op({
  operationId: 'Users_PutMassStatus',
  method: 'PUT',
  path: '/api/rest/v2/users/.batchStatus',
  summary: 'Activate or deactivate several users named by an identity claim, all or none.',
  tag,
  role: 'Administrator',
  body: UserStatusList,
  response: z.array(UserStatus),
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'set-status' },
});

export const Users_SearchUsers = op({
  operationId: 'Users_SearchUsers',
  method: 'POST',
  path: '/api/rest/v2/users/.search',
  summary: 'Search users with a query object; an absent query returns all.',
  tag,
  role: 'Administrator',
  body: SearchQuery.optional(),
  response: partialList(User),
  statuses: statuses(400),
  cli: { group, action: 'search' },
});

export const Users_Delete = op({
  operationId: 'Users_Delete',
  method: 'DELETE',
  path: '/api/rest/v2/users/{userId}',
  summary: 'Delete a user (success also when there is no such user).',
  tag,
  role: 'Administrator',
  params: idParams,
  statuses: statuses(),
  cli: { group, action: 'delete' },
});

export const Users_Get_Existing = op({
  operationId: 'Users_Get_Existing',
  method: 'GET',
  path: '/api/rest/v2/users/{userId}',
  summary: 'Get a user by id.',
  tag,
  role: 'Observer',
  params: idParams,
  response: User,
  statuses: statuses(404),
  cli: { group, action: 'get' },
});

export const Users_PatchUppdating = op({
  operationId: 'Users_PatchUppdating',
  method: 'PATCH',
  path: '/api/rest/v2/users/{userId}',
  summary: 'Change fields of a user with a list of operations.',
  tag,
  role: 'Administrator',
  params: idParams,
  body: PatchBody,
  response: User,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'patch' },
});

export const Users_Get = op({
  operationId: 'Users_Get',
  method: 'GET',
  path: '/api/rest/v2/users/myprofile',
  summary: "Get the calling user's own profile.",
  tag,
  role: 'User',
  response: User,
  statuses: statuses(404),
  cli: { group, action: 'myprofile' },
});

export const userOperations = [
  Users_GetAll,
  Users_Post,
  Users_Put,
  Users_GetAllFilter,
  Users_DeleteMassUser,
  Users_PostMassUser,
  Users_PutMassUser,
  Users_PutMassStatus,
  Users_SearchUsers,
  Users_Delete,
  Users_Get_Existing,
  Users_PatchUppdating,
  Users_Get,
  ...userCredentialOperations,
] as const;
