import { join } from 'node:path';
import { cliEnv } from '../env.js';
import { readJsonFile, withFileLock, writePrivateJson } from './files.js';

/**
 * A saved login. Only the server address, the OAuth client id and a refresh token are kept: never a password or
 * a client secret.
 */
export interface Profile {
  url: string;
  clientId: string;
  /** Absent for a client-credentials profile (those get no refresh token). */
  refreshToken?: string;
}

export interface ConfigFile {
  /** The profile used when neither --profile nor IDSVC_PROFILE names one. */
  current?: string;
  profiles: Record<string, Profile>;
}

/** An access token kept between runs until shortly before it expires (file `tokens.json`, mode 0600). */
export interface CachedToken {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** For client-credential tokens: a digest of the secret that obtained it, so a changed secret is not bypassed. */
  secretDigest?: string;
}

export const defaultProfileName = 'default';

export function configPath(): string {
  return join(cliEnv().configDir, 'config.json');
}

function tokensPath(): string {
  return join(cliEnv().configDir, 'tokens.json');
}

export function readConfig(): ConfigFile {
  const file = readJsonFile<ConfigFile>(configPath());
  return { current: file?.current, profiles: file?.profiles ?? {} };
}

/** Changes config.json under the lock (re-reading it first, so concurrent changes are kept). */
export function updateConfig(change: (config: ConfigFile) => void): Promise<ConfigFile> {
  return withFileLock(configPath(), async () => changeConfigLocked(change));
}

/** As `updateConfig`, for a caller that holds the lock already. */
export function changeConfigLocked(change: (config: ConfigFile) => void): ConfigFile {
  const config = readConfig();
  change(config);
  writePrivateJson(configPath(), config);
  return config;
}

export function readCachedToken(key: string): CachedToken | undefined {
  return readJsonFile<Record<string, CachedToken>>(tokensPath())?.[key];
}

/** Stores or (with undefined) forgets a cached token; call while holding the config lock. */
export function writeCachedToken(key: string, token: CachedToken | undefined): void {
  const all = readJsonFile<Record<string, CachedToken>>(tokensPath()) ?? {};
  if (token) all[key] = token;
  else delete all[key];
  writePrivateJson(tokensPath(), all);
}

/** Runs `fn` holding the lock of config.json. */
export function withConfigLock<T>(fn: () => Promise<T>): Promise<T> {
  return withFileLock(configPath(), fn);
}
