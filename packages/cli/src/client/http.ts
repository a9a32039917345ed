import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ApiCallError, CliError, exitCodes } from '../errors.js';
import { onShutdown } from '../shutdown.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | readonly string[];

export interface CallOptions {
  query?: Record<string, QueryValue>;
  /** Sent as JSON when not undefined. */
  body?: unknown;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, the text of another answer, or undefined for an empty one. */
  body: T;
}

/** Supplies bearer tokens; `renew` is asked once after a 401 (a cached token may have been revoked). */
export interface Authenticator {
  token(): Promise<string>;
  renew?(): Promise<string | undefined>;
}

/** Writes one line of the request trace (--verbose) on stderr. */
export type Trace = (line: string) => void;

// node:http rather than the undici package: loading undici costs ~0.4 s per run here, node:http ~10 ms, and
// every command pays it. Connections are kept alive for the batches of an import.
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 16 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 16 }),
};
onShutdown(() => {
  agents.http.destroy();
  agents.https.destroy();
});

function exchange(
  method: HttpMethod,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: IncomingMessage['headers']; text: string }> {
  const secure = url.protocol === 'https:';
  const request = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: secure ? agents.https : agents.http,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function headerRecord(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The address of `path` (relative to the server) with the query; arrays repeat the key. */
export function buildUrl(base: string, path: string, query: Record<string, QueryValue> = {}): URL {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, item);
    else url.searchParams.set(key, String(value));
  }
  return url;
}

/** Sends one request; network failures become a CliError naming the server (exit 1). */
export async function send(
  method: HttpMethod,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
  trace?: Trace,
): Promise<ApiResponse> {
  const started = performance.now();
  trace?.(`> ${method} ${url.href}`);
  let response: Awaited<ReturnType<typeof exchange>>;
  try {
    response = await exchange(method, url, headers, body);
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw new CliError(`cannot reach ${url.origin}: ${reason}`, exitCodes.failure);
  }
  const text = response.text;
  const responseHeaders = headerRecord(response.headers);
  trace?.(`< ${response.status} (${Math.round(performance.now() - started)} ms, ${text.length} bytes)`);
  let parsed: unknown = text === '' ? undefined : text;
  if (text !== '' && (responseHeaders['content-type'] ?? '').includes('json')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, headers: responseHeaders, body: parsed };
}

/** The admin API error of a non-2xx answer. */
export function apiError(response: ApiResponse): ApiCallError {
  const body = (response.body ?? {}) as Record<string, unknown>;
  const isObject = typeof response.body === 'object' && response.body !== null;
  const code = isObject && typeof body.error === 'string' ? body.error : `http_${response.status}`;
  const message =
    isObject && typeof body.message === 'string'
      ? body.message
      : typeof response.body === 'string' && response.body.length < 300
        ? response.body
        : `the server answered ${response.status}`;
  const details = isObject && Array.isArray(body.details) ? body.details : [];
  const requestId = isObject && typeof body.requestId === 'string' ? body.requestId : undefined;
  return new ApiCallError(response.status, code, message, details, requestId);
}

/** A client of the admin API of one server. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly auth?: Authenticator,
    private readonly trace?: Trace,
  ) {}

  /** Calls the API and returns the answer whatever its status. */
  async raw(method: HttpMethod, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    const url = buildUrl(this.baseUrl, path, options.query);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'idsvc-cli' };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.auth) headers.authorization = `Bearer ${await this.auth.token()}`;
    let response = await send(method, url, headers, body, this.trace);
    if (response.status === 401 && this.auth?.renew) {
      const renewed = await this.auth.renew();
      if (renewed) {
        headers.authorization = `Bearer ${renewed}`;
        response = await send(method, url, headers, body, this.trace);
      }
    }
    return response;
  }

  /** Calls the API; a non-2xx answer throws its ApiCallError. */
  async call<T = unknown>(method: HttpMethod, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const response = await this.raw(method, path, options);
    if (response.status < 200 || response.status >= 300) throw this.explain(apiError(response));
    return response as ApiResponse<T>;
  }

  /** Adds a hint to a 401 when no credentials were sent. */
  private explain(error: ApiCallError): ApiCallError {
    if (error.status === 401 && !this.auth) {
      error.details.push('not logged in: run `idsvc login`, or set IDSVC_TOKEN or IDSVC_CLIENT_ID/IDSVC_CLIENT_SECRET');
    }
    return error;
  }
}
