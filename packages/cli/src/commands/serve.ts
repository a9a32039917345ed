import { Command } from 'commander';
import { sizeThreadPoolForServer } from '../env.js';

interface ServeOptions {
  port?: string;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  baseUrl?: string;
}

/** `idsvc serve`: runs the server until SIGINT or SIGTERM. */
export function serveCommand(): Command {
  return new Command('serve')
    .description('run the idsvc server')
    .option('--port <port>', 'listen port, 0 for any free port (env IDSVC_PORT, default 8080)')
    .option('--host <host>', 'listen address (env IDSVC_HOST, default 127.0.0.1)')
    .option(
      '--data-dir <dir>',
      'folder of the embedded database and local state (env IDSVC_DATA_DIR, default ./.idsvc)',
    )
    .option('--database-url <url>', 'PostgreSQL connection string (env DATABASE_URL); default: the embedded database')
    .option('--base-url <url>', 'public base address (env IDSVC_BASE_URL, default http://HOST:PORT)')
    .action(async (options: ServeOptions) => {
      sizeThreadPoolForServer();
      // Loaded here so that other commands start without the server's dependencies.
      const { startServer, ConfigError } = await import('@idsvc/server');
      try {
        const server = await startServer(options);
        const stop = () => {
          server.close().then(
            () => process.exit(0),
            () => process.exit(1),
          );
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      } catch (error) {
        if (error instanceof ConfigError) {
          process.stderr.write(`idsvc serve: ${error.message}\n`);
          process.exit(2);
        }
        process.stderr.write(`idsvc serve: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      }
    });
}
