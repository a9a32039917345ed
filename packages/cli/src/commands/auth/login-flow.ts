import { readStdin } from '../../body.js';
import { cachedFromResponse, defaultUrl, digest } from '../../client/credentials.js';
import {
  cliClientId,
  clientCredentialsGrant,
  jwtPayload,
  passwordGrant,
  pollDeviceToken,
  revokeToken,
  startDeviceAuthorization,
  type TokenResponse,
} from '../../client/oauth.js';
import {
  changeConfigLocked,
  defaultProfileName,
  type Profile,
  readConfig,
  withConfigLock,
  writeCachedToken,
} from '../../config/store.js';
import type { Context } from '../../context.js';
import { cliEnv } from '../../env.js';
import { askFor } from '../../prompt.js';
import type { LoginOptions } from './login.js';

const firstLine = (text: string) => text.split(/\r?\n/)[0] ?? '';

async function secretFrom(flag: string | undefined, fromStdin: boolean | undefined, name: string, message: string) {
  if (flag !== undefined) return flag;
  if (fromStdin) return firstLine(await readStdin());
  return askFor(name, message, { secret: true });
}

async function deviceLogin(ctx: Context, url: string): Promise<TokenResponse> {
  const authorization = await startDeviceAuthorization(url, cliClientId, ctx.trace);
  const c = ctx.err;
  const where = authorization.verification_uri_complete ?? authorization.verification_uri;
  process.stderr.write(
    `To sign in, open ${c.bold(where)}\nand confirm the code ${c.bold(authorization.user_code)} (valid ${Math.round(authorization.expires_in / 60)} min).\nWaiting…\n`,
  );
  return pollDeviceToken(url, cliClientId, authorization, ctx.trace);
}

/** Signs in by the chosen grant and saves the profile; prints who is signed in where. */
export async function login(ctx: Context, options: LoginOptions): Promise<void> {
  const env = cliEnv();
  const profileName = ctx.globals.profile ?? env.profile ?? defaultProfileName;
  const existing = readConfig().profiles[profileName];
  const url = (ctx.globals.url ?? env.url ?? existing?.url ?? defaultUrl).replace(/\/+$/, '');
  let response: TokenResponse;
  let clientId = cliClientId;
  let secretDigest: string | undefined;
  if (options.device) {
    response = await deviceLogin(ctx, url);
  } else if (options.clientId !== undefined) {
    clientId = options.clientId;
    const secret =
      options.clientSecret ??
      (options.clientSecretStdin ? firstLine(await readStdin()) : undefined) ??
      env.clientSecret ??
      (await askFor('--client-secret', `Client secret of ${clientId}`, { secret: true }));
    secretDigest = digest(secret);
    response = await clientCredentialsGrant(url, clientId, secret, ctx.trace);
  } else {
    const userName = options.username ?? (await askFor('--username', `User name at ${url}`));
    const password = await secretFrom(options.password, options.passwordStdin, '--password', 'Password');
    response = await passwordGrant(url, userName, password, ctx.trace);
  }
  const profile: Profile = { url, clientId };
  if (response.refresh_token) profile.refreshToken = response.refresh_token;
  await withConfigLock(async () => {
    changeConfigLocked((config) => {
      config.profiles[profileName] = profile;
      config.current = profileName;
    });
    writeCachedToken(`profile:${profileName}`, cachedFromResponse(response, secretDigest));
  });
  if (existing?.refreshToken && existing.refreshToken !== profile.refreshToken) {
    await revokeToken(existing.url, existing.clientId, existing.refreshToken, ctx.trace);
  }
  const claims = jwtPayload(response.access_token) ?? {};
  const who = options.clientId !== undefined ? `client ${clientId}` : String(claims.sub ?? 'you');
  const role = claims['urn:identify:rest-api:role'];
  const name = options.username ?? (options.clientId ? undefined : await userNameOf(ctx, url, response.access_token));
  ctx.info(
    `${ctx.err.green('✓')} logged in to ${url} as ${name ?? who}${role ? ` (${[role].flat().join(', ')})` : ''}; profile ${profileName}${
      profile.refreshToken || options.clientId ? '' : ' (no refresh token: log in again when the token expires)'
    }`,
  );
}

/** The signed-in person's userName, for the greeting of a device login. */
async function userNameOf(ctx: Context, url: string, token: string): Promise<string | undefined> {
  try {
    const { ApiClient } = await import('../../client/http.js');
    const api = new ApiClient(url, { token: async () => token }, ctx.trace);
    const me = await api.call<{ userName?: string }>('GET', '/api/rest/v2/users/myprofile');
    return me.body.userName;
  } catch {
    return undefined;
  }
}
