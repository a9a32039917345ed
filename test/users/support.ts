import { expect } from 'vitest';
import { type Api, type ApiResponse, apiBase } from '../helpers/api.js';
import { unknownGuid } from '../helpers/fixtures.js';

export const usersPath = `${apiBase}/users`;
export const filterPath = `${usersPath}/.filter`;
export const batchPath = `${usersPath}/.batch`;
export const lockedUsersPath = `${apiBase}/lockedusers`;

/** A user as the admin API returns it. */
export interface User {
  id: string;
  userName: string;
  email: string | null;
  displayName: string | null;
  active: boolean;
  organization: string;
  groups: string[];
  forceResetPasswordAfterFirstTimeLogin: boolean;
  claims: { type: string; value: string }[];
  phoneNumber: string | null;
  locked: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The fields of a user that a create body may hold. */
export type UserBody = Partial<Omit<User, 'locked' | 'createdAt' | 'updatedAt'>> & {
  userName: string;
  password?: string;
  oldPassword?: string;
};

/** What a freshly created user looks like: the given fields over the defaults. */
export function expectedUser(body: UserBody): User {
  return {
    id: body.id ?? expect.stringMatching(/^[0-9a-f-]{36}$/),
    userName: body.userName,
    email: body.email ?? null,
    displayName: body.displayName ?? null,
    active: body.active ?? true,
    organization: body.organization ?? 'Root',
    groups: body.groups ?? [],
    forceResetPasswordAfterFirstTimeLogin: body.forceResetPasswordAfterFirstTimeLogin ?? false,
    claims: body.claims ?? [],
    phoneNumber: body.phoneNumber ?? null,
    locked: false,
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  };
}

/** Creates a user as set-up for a test; throws unless the answer is 200. */
export async function createUser(admin: Api, body: UserBody): Promise<User> {
  const response = await admin.post<User>(usersPath, { body });
  if (response.status !== 200) {
    throw new Error(`set-up POST users ${body.userName}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

/** Creates a group as set-up for a test; throws unless the answer is 200. */
export async function createGroup(admin: Api, name: string): Promise<void> {
  const response = await admin.post(`${apiBase}/groups`, { body: { name } });
  if (response.status !== 200) {
    throw new Error(`set-up POST groups ${name}: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

/** Reads a user back; throws unless the answer is 200. */
export async function readUser(admin: Api, id: string): Promise<User> {
  const response = await admin.get<User>(`${usersPath}/${id}`);
  if (response.status !== 200) throw new Error(`GET users/${id}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** The userNames of the users matching a SCIM filter (Users_GetAllFilter, default order). */
export async function userNamesWhere(admin: Api, filter: string): Promise<string[]> {
  const response = await admin.get<User[]>(filterPath, { query: { filter } });
  if (response.status !== 200) throw new Error(`filter ${filter}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.map((user) => user.userName);
}

/** userNames of a list answer, in order. */
export function userNames(response: ApiResponse<unknown>): string[] {
  return (response.body as User[]).map((user) => user.userName);
}

/** A filter matching exactly the given userNames. */
export function anyOf(names: string[]): string {
  return names.map((name) => `userName eq "${name}"`).join(' or ');
}

/** Every Users_* operation (operations.tsv) with a path that reaches it. */
export const userOperations: [operationId: string, method: string, path: string][] = [
  ['Users_GetAll', 'GET', usersPath],
  ['Users_Post', 'POST', usersPath],
  ['Users_Put', 'PUT', usersPath],
  ['Users_GetAllFilter', 'GET', filterPath],
  ['Users_DeleteMassUser', 'DELETE', batchPath],
  ['Users_PostMassUser', 'POST', batchPath],
  ['Users_PutMassUser', 'PUT', batchPath],
  ['Users_PutMassStatus', 'PUT', `${usersPath}/.batchStatus`],
  ['Users_SearchUsers', 'POST', `${usersPath}/.search`],
  ['Users_Delete', 'DELETE', `${usersPath}/${unknownGuid}`],
  ['Users_Get_Existing', 'GET', `${usersPath}/${unknownGuid}`],
  ['Users_PatchUppdating', 'PATCH', `${usersPath}/${unknownGuid}`],
  ['Users_Get', 'GET', `${usersPath}/myprofile`],
  ['Users_GetAllRefreshToken', 'GET', `${usersPath}/refreshtoken?userId=${unknownGuid}`],
  ['Users_DeleteRefreshToken', 'DELETE', `${usersPath}/refreshtoken?refreshToken=x`],
  ['Users_GetAuthenticators', 'GET', `${usersPath}/authenticators?userId=${unknownGuid}`],
  ['Users_ResetAuthenticator', 'DELETE', `${usersPath}/resetauthenticator?userId=${unknownGuid}&connectionName=x`],
  [
    'Users_OnboardAuthenticator',
    'POST',
    `${usersPath}/onboardauthenticator?userId=${unknownGuid}&connectionName=x&secretCode=x`,
  ],
  ['Users_GetConsent', 'GET', `${usersPath}/consent?userId=${unknownGuid}`],
  ['Users_DeleteConsent', 'DELETE', `${usersPath}/consent?userId=${unknownGuid}&connectionName=x`],
  ['Users_GetAllLockedUsers', 'GET', lockedUsersPath],
  ['Users_Patch', 'PATCH', lockedUsersPath],
];
