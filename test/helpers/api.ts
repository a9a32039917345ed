import type { TestServer } from './server.js';

export const apiBase = '/api/rest/v2';
export const roleClaimType = 'urn:identify:rest-api:role';
/** Password given to users the tests create. */
export const testPassword = 'Corr3ct-Horse-Battery!';

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with content type application/json (for malformed bodies). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, otherwise the text. */
  body: T;
}

/** A loosely typed JSON object, for reading fields of answers. */
export type Json = Record<string, unknown>;

/** A small client of the admin API; paths are relative to the server (`/api/rest/v2/...`). */
export class Api {
  constructor(
    readonly url: string,
    readonly token?: string,
  ) {}

  get<T = Json>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = Json>(path: string, options?: RequestOptions) {
    return this.request<T>('POST', path, options);
  }
  put<T = Json>(path: string, options?: RequestOptions) {
    return this.request<T>('PUT', path, options);
  }
  patch<T = Json>(path: string, options?: RequestOptions) {
    return this.request<T>('PATCH', path, options);
  }
  delete<T = Json>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const target = new URL(path, this.url);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) target.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(target, { method, headers, body });
    return { status: response.status, headers: response.headers, body: (await parseBody(response)) as T };
  }
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('json') || text === '') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The `Link` header as a map from rel to address. */
export function links(response: ApiResponse<unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (response.headers.get('link') ?? '').split(',')) {
    const match = /<([^>]*)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
    if (match) out[match[2]] = match[1];
  }
  return out;
}

/** `X-Total-Count` as a number (NaN when absent). */
export function totalCount(response: ApiResponse<unknown>): number {
  return Number(response.headers.get('x-total-count') ?? Number.NaN);
}

export interface TokenOptions {
  clientId?: string;
  scope?: string;
}

/** Posts a password grant to the token endpoint and returns the raw answer. */
export async function passwordGrant(
  url: string,
  username: string,
  password: string,
  options: TokenOptions = {},
): Promise<ApiResponse<Json>> {
  const form = new URLSearchParams({
    grant_type: 'password',
    client_id: options.clientId ?? 'idsvc-cli',
    username,
    password,
    scope: options.scope ?? 'identify*scim offline_access',
  });
  const response = await fetch(new URL('/runtime/oauth2/token.idp', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form,
  });
  return { status: response.status, headers: response.headers, body: (await parseBody(response)) as Json };
}

/** An access token for the user, by the password grant; throws with the answer when it is refused. */
export async function tokenFor(url: string, username: string, password: string, options?: TokenOptions) {
  const response = await passwordGrant(url, username, password, options);
  const token = response.body.access_token;
  if (response.status !== 200 || typeof token !== 'string') {
    throw new Error(`token for ${username}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return token;
}

/** An API client acting as the bootstrap administrator. */
export async function adminApi(server: TestServer): Promise<Api> {
  return new Api(server.url, await tokenFor(server.url, 'admin', server.adminPassword));
}

/** An API client acting as the given user. */
export async function userApi(url: string, userName: string, password = testPassword): Promise<Api> {
  return new Api(url, await tokenFor(url, userName, password));
}

/** Creates a user holding the REST API role and password `testPassword`; returns the created user. */
export async function createUserWithRole(admin: Api, userName: string, role: string, password = testPassword) {
  const response = await admin.post(`${apiBase}/users`, {
    body: { userName, password, claims: [{ type: roleClaimType, value: role }] },
  });
  if (response.status !== 200) {
    throw new Error(`creating user ${userName}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body as Json & { id: string; userName: string };
}

/** A name no other test uses: the prefix and eight random lower-case letters and digits. */
export function unique(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 10).padEnd(8, '0')}`;
}
