import type { SigningKeys } from './auth/signing-keys.js';
import type { Config } from './config.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Database, Db } from './db/client.js';
import type { Logger } from './http/logger.js';

/** What every part of the server shares, made once at start. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** Seals and opens secrets at rest with the server's secret key. */
  box: SecretBox;
  keys: SigningKeys;
  logger: Logger;
  /** The public base address (known once the socket listens). */
  baseUrl(): string;
}
