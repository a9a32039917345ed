import { z } from 'zod';

/**
 * The server's configuration: the only place that reads the environment.
 * Command-line options (passed as `overrides`) win over the environment, which wins over defaults.
 */
const Config = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(8080),
  host: z.string().min(1).default('127.0.0.1'),
  dataDir: z.string().min(1).default('./.idsvc'),
  databaseUrl: z.string().min(1).optional(),
  baseUrl: z.url().optional(),
  adminUserName: z.string().min(1).default('admin'),
  adminPassword: z.string().min(1).optional(),
  secretKey: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'IDSVC_SECRET_KEY must be base64 of 32 bytes')
    .optional(),
  logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = z.infer<typeof Config>;
export type ConfigOverrides = Partial<{ [K in keyof Config]: Config[K] | string }>;

type Env = Record<string, string | undefined>;

function fromEnv(env: Env): ConfigOverrides {
  return {
    port: env.IDSVC_PORT,
    host: env.IDSVC_HOST,
    dataDir: env.IDSVC_DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    baseUrl: env.IDSVC_BASE_URL,
    adminUserName: env.IDSVC_ADMIN_USERNAME,
    adminPassword: env.IDSVC_ADMIN_PASSWORD,
    secretKey: env.IDSVC_SECRET_KEY,
    logLevel: env.IDSVC_LOG_LEVEL,
  };
}

function defined(values: ConfigOverrides): ConfigOverrides {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== ''));
}

export class ConfigError extends Error {}

/** Reads and validates the configuration once, at start. */
export function loadConfig(overrides: ConfigOverrides = {}, env: Env = process.env): Config {
  const parsed = Config.safeParse({ ...defined(fromEnv(env)), ...defined(overrides) });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** The public base address: configured, or built from the listening host and port. */
export function baseUrlOf(config: Config, port: number): string {
  if (config.baseUrl) return config.baseUrl.replace(/\/+$/, '');
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
}
