import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';

/** The environment the CLI reads: this module is the only place that touches `process.env`. */
export interface CliEnv {
  /** IDSVC_URL */
  url?: string;
  /** IDSVC_TOKEN: an access token used as is. */
  token?: string;
  /** IDSVC_PROFILE */
  profile?: string;
  /** IDSVC_CLIENT_ID and IDSVC_CLIENT_SECRET: client credentials for pipelines. */
  clientId?: string;
  clientSecret?: string;
  /** NO_COLOR set (to anything non-empty) turns colours off. */
  noColor: boolean;
  /** FORCE_COLOR set to a non-zero value turns colours on even without a terminal. */
  forceColor: boolean;
  /** The folder of config.json: $XDG_CONFIG_HOME/idsvc, else ~/.config/idsvc. */
  configDir: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

let cached: CliEnv | undefined;

export function cliEnv(): CliEnv {
  if (cached) return cached;
  const env = process.env;
  const configHome = nonEmpty(env.XDG_CONFIG_HOME) ?? join(homedir(), '.config');
  cached = {
    url: nonEmpty(env.IDSVC_URL),
    token: nonEmpty(env.IDSVC_TOKEN),
    profile: nonEmpty(env.IDSVC_PROFILE),
    clientId: nonEmpty(env.IDSVC_CLIENT_ID),
    clientSecret: nonEmpty(env.IDSVC_CLIENT_SECRET),
    noColor: nonEmpty(env.NO_COLOR) !== undefined,
    forceColor: nonEmpty(env.FORCE_COLOR) !== undefined && env.FORCE_COLOR !== '0',
    configDir: join(configHome, 'idsvc'),
  };
  return cached;
}

/**
 * Sizes libuv's thread pool to the machine before the server starts, so that a batch's argon2 hashes use every
 * core (the default pool has 4 threads). Must run before anything uses the pool.
 */
export function sizeThreadPoolForServer(): void {
  if (nonEmpty(process.env.UV_THREADPOOL_SIZE) === undefined) {
    process.env.UV_THREADPOOL_SIZE = String(Math.min(1024, Math.max(4, availableParallelism())));
  }
}
