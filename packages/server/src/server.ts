import { createServer as createHttpServer, type RequestListener, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { adminHandlers } from './admin/index.js';
import { registerOperations } from './admin/registry.js';
import { SigningKeys } from './auth/signing-keys.js';
import { baseUrlOf, type ConfigOverrides, loadConfig } from './config.js';
import type { AppContext } from './context.js';
import { SecretBox } from './crypto/secret-box.js';
import { resolveSecretKey } from './crypto/secret-key.js';
import { openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import { seed } from './db/seed.js';
import { createHttpApp } from './http/app.js';
import { createLogger } from './http/logger.js';
import { openApiRoutes } from './openapi/routes.js';
import { runtimeFastPath, runtimeRoutes } from './runtime/routes.js';
import { recordError } from './services/correlation-errors.js';
import { createServices } from './services/index.js';

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, finishes requests in flight, closes the database. */
  close(): Promise<void>;
}

/** Builds the context: configuration, database (migrated and seeded), secret key, signing keys. */
export async function createContext(overrides: ConfigOverrides = {}) {
  const config = loadConfig(overrides);
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(database);
    const box = new SecretBox(await resolveSecretKey(config, database, logger));
    const { generatedAdminPassword } = await seed({ db: database.db, config, logger });
    if (generatedAdminPassword) {
      process.stderr.write(`bootstrap administrator ${config.adminUserName} password: ${generatedAdminPassword}\n`);
    }
    const keys = await SigningKeys.load(database.db, box, { algorithms: ['RS256', 'ES256'] });
    let baseUrl = baseUrlOf(config, config.port);
    const ctx: AppContext = { config, database, db: database.db, box, keys, logger, baseUrl: () => baseUrl };
    const setPort = (port: number) => {
      baseUrl = baseUrlOf(config, port);
    };
    return { ctx, setPort };
  } catch (error) {
    await database.close();
    throw error;
  }
}

export function createApp(ctx: AppContext) {
  const app = createHttpApp(
    ctx.logger,
    () => ctx.database.ping(),
    (event) => recordError(ctx.db, event),
  );
  app.route('/', openApiRoutes(ctx.baseUrl));
  app.route('/', runtimeRoutes(ctx));
  registerOperations(app, ctx, createServices(ctx), adminHandlers());
  return app;
}

/** Starts idsvc: prints `listening on http://HOST:PORT` once the socket is ready. */
export async function startServer(overrides: ConfigOverrides = {}): Promise<RunningServer> {
  const { ctx, setPort } = await createContext(overrides);
  const app = createApp(ctx);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    // Plain token requests are served straight on node:http (runtime/token-fast-path.ts); the rest by the app.
    const fastPath = runtimeFastPath(ctx);
    const createServer = ((options: ServerOptions, listener: RequestListener) =>
      createHttpServer(options, (req, res) => fastPath(req, res) || listener(req, res))) as typeof createHttpServer;
    const s = serve({ fetch: app.fetch, hostname: ctx.config.host, port: ctx.config.port, createServer }, () =>
      resolve(s),
    );
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  setPort(port);
  const shown = ctx.config.host.includes(':') ? `[${ctx.config.host}]` : ctx.config.host;
  const url = `http://${shown}:${port}`;
  process.stdout.write(`idsvc listening on ${url}\n`);
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeIdleConnections' in server) server.closeIdleConnections();
        });
        await ctx.database.close();
      })()),
  };
}
