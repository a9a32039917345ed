import { createHash } from 'node:crypto';
import {
  type CachedToken,
  changeConfigLocked,
  defaultProfileName,
  type Profile,
  readCachedToken,
  readConfig,
  withConfigLock,
  writeCachedToken,
} from '../config/store.js';
import { cliEnv } from '../env.js';
import { CliError, exitCodes } from '../errors.js';
import type { Authenticator, Trace } from './http.js';
import { clientCredentialsGrant, OAuthCallError, refreshGrant, type TokenResponse } from './oauth.js';

export const defaultUrl = 'http://127.0.0.1:8080';
/** A cached access token is used until this long before it expires. */
const marginMs = 60_000;

export interface Target {
  /** The server's base address. */
  url: string;
  /** The profile whose login is used, when one is. */
  profileName?: string;
  profile?: Profile;
  auth?: Authenticator;
  /** How the credentials were found, for `whoami`. */
  source: 'token' | 'client-credentials' | 'profile' | 'none';
}

export interface TargetOptions {
  url?: string;
  token?: string;
  profile?: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export function cachedFromResponse(response: TokenResponse, secretDigest?: string): CachedToken {
  const seconds = typeof response.expires_in === 'number' ? response.expires_in : 300;
  return { accessToken: response.access_token, expiresAt: Date.now() + seconds * 1000, secretDigest };
}

const fresh = (token: CachedToken | undefined): token is CachedToken =>
  token !== undefined && token.expiresAt - marginMs > Date.now();

/** IDSVC_CLIENT_ID/IDSVC_CLIENT_SECRET: a token by client credentials, cached between runs. */
function clientCredentialsAuth(url: string, clientId: string, secret: string, trace?: Trace): Authenticator {
  const key = `client:${url}|${clientId}`;
  const secretDigest = digest(secret);
  const obtain = async () => {
    const response = await clientCredentialsGrant(url, clientId, secret, trace);
    const token = cachedFromResponse(response, secretDigest);
    try {
      await withConfigLock(async () => writeCachedToken(key, token));
    } catch {
      // a read-only config folder only costs a token request per run
    }
    return token.accessToken;
  };
  return {
    async token() {
      let cached: CachedToken | undefined;
      try {
        cached = readCachedToken(key);
      } catch {
        cached = undefined;
      }
      return fresh(cached) && cached.secretDigest === secretDigest ? cached.accessToken : obtain();
    },
    renew: obtain,
  };
}

/** A saved profile: its cached access token, else a refresh (under the config lock, so only one process spends it). */
function profileAuth(name: string, url: string, trace?: Trace): Authenticator {
  const key = `profile:${name}`;
  const refresh = (force: boolean) =>
    withConfigLock(async () => {
      const cached = readCachedToken(key);
      if (!force && fresh(cached)) return cached.accessToken;
      const profile = readConfig().profiles[name];
      if (!profile) throw new CliError(`profile ${name} was removed; run idsvc login`, exitCodes.auth);
      const env = cliEnv();
      if (profile.refreshToken) {
        let response: TokenResponse;
        try {
          response = await refreshGrant(url, profile.clientId, profile.refreshToken, trace);
        } catch (error) {
          if (error instanceof OAuthCallError && error.error === 'invalid_grant') {
            writeCachedToken(key, undefined);
            throw new CliError(
              `the login of profile ${name} has expired or was revoked: run idsvc login${name === defaultProfileName ? '' : ` --profile ${name}`}`,
              exitCodes.auth,
            );
          }
          throw error;
        }
        const newRefresh = response.refresh_token;
        if (newRefresh) {
          changeConfigLocked((config) => {
            const current = config.profiles[name];
            if (current) current.refreshToken = newRefresh;
          });
        }
        const token = cachedFromResponse(response);
        writeCachedToken(key, token);
        return token.accessToken;
      }
      if (env.clientSecret && (!env.clientId || env.clientId === profile.clientId)) {
        const response = await clientCredentialsGrant(url, profile.clientId, env.clientSecret, trace);
        const token = cachedFromResponse(response);
        writeCachedToken(key, token);
        return token.accessToken;
      }
      throw new CliError(
        `the token of profile ${name} (client ${profile.clientId}) has expired: run idsvc login --client-id ${profile.clientId} again, or set IDSVC_CLIENT_SECRET`,
        exitCodes.auth,
      );
    });
  return {
    async token() {
      const cached = readCachedToken(key);
      return fresh(cached) ? cached.accessToken : refresh(false);
    },
    renew: () => refresh(true),
  };
}

/**
 * Where and as whom to call: `--token`/IDSVC_TOKEN as is; else IDSVC_CLIENT_ID with IDSVC_CLIENT_SECRET; else a
 * profile (`--profile`, IDSVC_PROFILE, the current one, or one saved for the same URL); else no credentials.
 * The URL: `--url`, IDSVC_URL, the profile's, http://127.0.0.1:8080.
 */
export function resolveTarget(options: TargetOptions, trace?: Trace): Target {
  const env = cliEnv();
  const askedUrl = options.url ?? env.url;
  const token = options.token ?? env.token;
  if (token) {
    return {
      url: trimSlash(askedUrl ?? defaultUrl),
      auth: { token: async () => token },
      source: 'token',
    };
  }
  const config = readConfig();
  const named = options.profile ?? env.profile;
  if (named !== undefined && !config.profiles[named]) {
    throw new CliError(`no profile named ${named}: run idsvc login --profile ${named}`, exitCodes.usage);
  }
  if (env.clientId && env.clientSecret && named === undefined) {
    const url = trimSlash(askedUrl ?? defaultUrl);
    return {
      url,
      auth: clientCredentialsAuth(url, env.clientId, env.clientSecret, trace),
      source: 'client-credentials',
    };
  }
  let name = named;
  if (name === undefined) {
    const current = config.current ?? defaultProfileName;
    const matches = (p: Profile | undefined) =>
      p !== undefined && (!askedUrl || trimSlash(p.url) === trimSlash(askedUrl));
    if (matches(config.profiles[current])) name = current;
    else name = Object.keys(config.profiles).find((n) => askedUrl && matches(config.profiles[n]));
  }
  const profile = name === undefined ? undefined : config.profiles[name];
  if (name === undefined || !profile) return { url: trimSlash(askedUrl ?? defaultUrl), source: 'none' };
  const url = trimSlash(askedUrl ?? profile.url);
  return { url, profileName: name, profile, auth: profileAuth(name, url, trace), source: 'profile' };
}
