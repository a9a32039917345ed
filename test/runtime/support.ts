import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as oidc from 'openid-client';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { AppContext } from '../../packages/server/dist/context.js';
import { createApp, createContext } from '../../packages/server/dist/index.js';
import { runtimeFastPath } from '../../packages/server/dist/runtime/routes.js';
import { getRequestListener } from '../../packages/server/node_modules/@hono/node-server/dist/index.mjs';
import { sql } from '../../packages/server/node_modules/drizzle-orm/index.js';
import { Api, apiBase, type Json, testPassword, tokenFor } from '../helpers/api.js';

/**
 * The built server run in the test's own process (so that a test can read the database, move time-dependent rows
 * and read the log records), listening on a free port like `idsvc serve`.
 */
export interface RuntimeServer {
  url: string;
  issuer: string;
  ctx: AppContext;
  admin: Api;
  /** Log records written so far, parsed. */
  logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** One in-process server for the test file (beforeAll), stopped afterwards. */
export function runtimeServerPerFile(): { server: RuntimeServer } {
  const holder = {} as { server: RuntimeServer };
  beforeAll(async () => {
    holder.server = await startRuntimeServer();
  });
  afterAll(async () => {
    await holder.server?.stop();
  });
  return holder;
}

function template(): { dataDir: string; adminPassword: string; database?: string } | undefined {
  try {
    return inject('idsvcTemplate');
  } catch {
    return undefined;
  }
}

export async function startRuntimeServer(): Promise<RuntimeServer> {
  const from = template();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idsvc-runtime-'));
  const adminPassword = from?.adminPassword ?? `Adm1n!${randomBytes(12).toString('base64url')}`;
  const database = process.env.DATABASE_URL
    ? await createDatabase(process.env.DATABASE_URL, from?.database)
    : undefined;
  if (from && !database) fs.cpSync(from.dataDir, dataDir, { recursive: true });
  const { ctx, setPort } = await createContext({
    dataDir,
    port: 0,
    adminPassword,
    logLevel: 'info',
    ...(database ? { databaseUrl: database.url } : {}),
  });
  const logs: Record<string, unknown>[] = [];
  const record = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    logs.push({ level, msg, ...fields });
  };
  ctx.logger = { debug: () => {}, info: record('info'), warn: record('warn'), error: record('error') };
  const app = createApp(ctx);
  // Like `idsvc serve`: plain token requests take the node:http fast path, the rest the app.
  const fastPath = runtimeFastPath(ctx);
  const listener = getRequestListener(app.fetch);
  const http: Server = createServer((req, res) => fastPath(req, res) || listener(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  setPort(port);
  const url = `http://127.0.0.1:${port}`;
  const admin = new Api(url, await tokenFor(url, 'admin', adminPassword));
  return {
    url,
    issuer: `${url}/runtime/oauth2`,
    ctx,
    admin,
    logs,
    async stop() {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await ctx.database.close();
      if (database) await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function createDatabase(adminUrl: string, from?: string) {
  const name = `idsvc_rt_${randomBytes(6).toString('hex')}`;
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(from ? `CREATE DATABASE ${name} TEMPLATE ${from}` : `CREATE DATABASE ${name}`);
  } finally {
    await sql.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

let counter = 0;
/** A name unique within the run. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${randomBytes(3).toString('hex')}`;
}

export interface ClientInput {
  configuration?: Record<string, unknown>;
  scopes?: string[];
  claimSets?: string[];
  claimTransformations?: string[];
  dependencyConnectionNames?: string[];
}

export interface CreatedClient {
  id: string;
  name: string;
  clientId: string;
  clientSecret?: string;
}

/** Creates an OAuth20 protocol connection through the admin API (POST /connections). */
export async function createClient(server: RuntimeServer, input: ClientInput = {}): Promise<CreatedClient> {
  const name = unique('app');
  const configuration = {
    clientId: name,
    redirectUris: ['http://127.0.0.1:9/cb'],
    allowedGrantTypes: ['authorization_code', 'refresh_token'],
    ...input.configuration,
  };
  const response = await server.admin.post(`${apiBase}/connections`, {
    body: {
      name,
      connectionType: 'Protocol',
      pluginType: 'OAuth20',
      configuration,
      ...(input.scopes ? { scopes: input.scopes } : {}),
      ...(input.claimSets ? { claimSets: input.claimSets } : {}),
      ...(input.claimTransformations ? { claimTransformations: input.claimTransformations } : {}),
      ...(input.dependencyConnectionNames ? { dependencyConnectionNames: input.dependencyConnectionNames } : {}),
    },
  });
  if (response.status !== 200) throw new Error(`create client: ${response.status} ${JSON.stringify(response.body)}`);
  const body = response.body as { id: string; configuration: { clientId: string; clientSecret?: string } };
  const secret = body.configuration.clientSecret ?? (configuration as { clientSecret?: string }).clientSecret;
  return { id: body.id, name, clientId: body.configuration.clientId, ...(secret ? { clientSecret: secret } : {}) };
}

export interface UserInput {
  userName?: string;
  email?: string;
  password?: string;
  displayName?: string;
  phoneNumber?: string;
  claims?: { type: string; value: string }[];
  forceResetPasswordAfterFirstTimeLogin?: boolean;
}

/** Creates a user through the admin API; the password is `testPassword` unless told. */
export async function createUser(
  server: RuntimeServer,
  input: UserInput = {},
): Promise<Json & { id: string; userName: string }> {
  const userName = input.userName ?? unique('user');
  const response = await server.admin.post(`${apiBase}/users`, {
    body: { userName, password: testPassword, email: `${userName}@example.test`, ...input },
  });
  if (response.status !== 200) throw new Error(`create user: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Json & { id: string; userName: string };
}

/** openid-client's configuration for a client of the server (plain http allowed: the tests run on loopback). */
export async function rpConfig(
  server: RuntimeServer,
  client: CreatedClient,
  auth: 'basic' | 'post' | 'none' = 'basic',
  metadata: Partial<oidc.ClientMetadata> = {},
): Promise<oidc.Configuration> {
  const method =
    auth === 'none'
      ? oidc.None()
      : auth === 'post'
        ? oidc.ClientSecretPost(client.clientSecret)
        : oidc.ClientSecretBasic(client.clientSecret);
  return oidc.discovery(new URL(server.issuer), client.clientId, metadata, method, {
    execute: [oidc.allowInsecureRequests],
  });
}

/** The log records of an event id (4110, 4111). */
export function events(server: RuntimeServer, eventId: number): Record<string, unknown>[] {
  return server.logs.filter((r) => r.eventId === eventId);
}

/**
 * Asserts an upstream provider's answer was refused as invalid: access_denied (with the request's state `no`) back
 * at the client, and exactly one event 4111 (`logged`: those since the sign-in started) for the connection, its
 * description matching.
 */
export function expectInvalidUpstreamAnswer(
  server: RuntimeServer,
  refusal: { left: URL | undefined; logged: Record<string, unknown>[]; connection: string },
  description: string | RegExp,
): void {
  expect(Object.fromEntries(refusal.left?.searchParams ?? [])).toEqual({
    error: 'access_denied',
    error_description: 'the identity provider answered invalid_response',
    state: 'no',
    iss: server.issuer,
  });
  expect(refusal.logged).toEqual([
    expect.objectContaining({ eventId: 4111, error: 'invalid_response', connection: refusal.connection }),
  ]);
  expect(String(refusal.logged[0].description)).toMatch(description);
}

export { testPassword };

/** The redirect address the runtime tests' clients register (nothing listens there: the agent stops before it). */
export const TEST_REDIRECT_URI = 'http://127.0.0.1:9/cb';

/** An authorization request of the client: code flow, scope openid, `TEST_REDIRECT_URI`, then `params` over them. */
export function authorizeUrl(
  server: RuntimeServer,
  client: CreatedClient,
  params: Record<string, string> = {},
): string {
  const query = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: TEST_REDIRECT_URI,
    response_type: 'code',
    scope: 'openid',
    ...params,
  });
  return `${server.url}/runtime/oauth2/authorize.idp?${query}`;
}

/** The rows of a query, from either database driver (a `rows` field, or the array itself). */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows?: Record<string, unknown>[] }).rows ?? (result as Record<string, unknown>[]);
}

/** Runs SQL against the server's database (to move time-dependent rows or change what the admin API guards). */
export function execSql(server: RuntimeServer) {
  return (strings: TemplateStringsArray, ...values: unknown[]) => server.ctx.db.execute(sql(strings, ...values));
}
