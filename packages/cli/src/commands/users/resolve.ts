import type { ApiClient } from '../../client/http.js';
import { CliError, exitCodes } from '../../errors.js';

export const guidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UserRecord {
  id: string;
  userName: string;
  email?: string | null;
  active?: boolean;
  locked?: boolean;
  groups?: string[];
  [key: string]: unknown;
}

/** A SCIM string literal. */
export function scimString(value: string): string {
  return JSON.stringify(value);
}

/** A user by id (a GUID) or by userName; not found is exit 3. */
export async function findUser(api: ApiClient, idOrName: string): Promise<UserRecord> {
  if (guidPattern.test(idOrName)) {
    return (await api.call<UserRecord>('GET', `/api/rest/v2/users/${idOrName}`)).body;
  }
  const found = await api.call<UserRecord[]>('GET', '/api/rest/v2/users/.filter', {
    query: { filter: `userName eq ${scimString(idOrName)}`, pageSize: 2 },
  });
  const user = found.body[0];
  if (!user) throw new CliError(`no user named ${idOrName}`, exitCodes.notFound);
  return user;
}
