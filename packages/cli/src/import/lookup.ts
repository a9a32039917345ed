import type { ApiClient } from '../client/http.js';
import { ApiCallError } from '../errors.js';

export interface ExistingUser {
  id: string;
  userName: string;
  email?: string | null;
}

/** Longest filter sent in one search (the API takes up to 8192 characters). */
const maxFilter = 7_500;

/** `field eq "v1" or field eq "v2" …` filters, each within maxFilter characters. */
export function eqFilters(field: string, values: readonly string[]): string[] {
  const filters: string[] = [];
  let current = '';
  for (const value of values) {
    const clause = `${field} eq ${JSON.stringify(value)}`;
    if (current && current.length + clause.length + 4 > maxFilter) {
      filters.push(current);
      current = '';
    }
    current = current ? `${current} or ${clause}` : clause;
  }
  if (current) filters.push(current);
  return filters;
}

/** The users that hold one of the userNames or e-mails (Users_SearchUsers, a few filters per batch). */
export async function existingUsers(
  api: ApiClient,
  userNames: readonly string[],
  emails: readonly string[] = [],
): Promise<ExistingUser[]> {
  const filters = [...eqFilters('userName', [...new Set(userNames)]), ...eqFilters('email', [...new Set(emails)])];
  const found = new Map<string, ExistingUser>();
  for (const filter of filters) {
    const response = await api.call<ExistingUser[]>('POST', '/api/rest/v2/users/.search', {
      body: { filter, attributes: ['id', 'userName', 'email'], pageSize: 1000 },
    });
    for (const user of response.body) found.set(user.id, user);
  }
  return [...found.values()];
}

/** Whether named objects exist (organizations, groups), asked once per distinct name. */
export class ExistenceCache {
  private readonly known = new Map<string, Promise<boolean>>();

  constructor(
    private readonly api: ApiClient,
    private readonly collection: string,
  ) {}

  exists(name: string): Promise<boolean> {
    const key = name.toLowerCase();
    let answer = this.known.get(key);
    if (!answer) {
      answer = this.api.call('GET', `/api/rest/v2/${this.collection}/${encodeURIComponent(name)}`).then(
        () => true,
        (error: unknown) => {
          if (error instanceof ApiCallError && error.status === 404) return false;
          throw error;
        },
      );
      this.known.set(key, answer);
    }
    return answer;
  }
}

/** Claim types of the header without a claim definition on the server. */
export async function unknownClaimTypes(api: ApiClient, claimTypes: readonly string[]): Promise<string[]> {
  const cache = new ExistenceCache(api, 'claimdefinitions');
  const unknown: string[] = [];
  for (const type of claimTypes) if (!(await cache.exists(type))) unknown.push(type);
  return unknown;
}
