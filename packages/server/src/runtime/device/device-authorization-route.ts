import { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { authenticateClient, ensureGrantAllowed, readClientCredentials, usesBasicAuth } from '../clients.js';
import { corsForClient } from '../cors.js';
import { runtimeDefaults, runtimePaths } from '../defaults.js';
import { readForm } from '../form.js';
import { DEVICE_CODE_GRANT } from '../grants/device-code.js';
import { OAuthError, oauthErrorResponse, ServerError } from '../oauth-errors.js';
import { logOAuthError } from '../oauth-log.js';
import { grantScopes } from '../scopes.js';
import { storeDeviceCode } from './device-codes.js';

/**
 * `POST /runtime/oauth2/deviceauthorization.idp` (RFC 8628 §3.1–3.2). Steps: read the form, authenticate the client
 * (public clients by id), check it may use the device code grant, grant the scopes, store the codes, answer with
 * the addresses a person opens (`verification_uri_complete` prefills the code).
 */
export function deviceAuthorizationRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.deviceAuthorization, async (c) => {
    const authorization = c.req.header('authorization');
    try {
      const form = await readForm(c, { unique: true });
      const client = await authenticateClient(ctx, readClientCredentials(authorization, form));
      corsForClient(c, client);
      ensureGrantAllowed(client, DEVICE_CODE_GRANT);
      const scopes = grantScopes(client, form.get('scope'));
      const { deviceCode, userCode } = await storeDeviceCode(ctx.db, client.clientId, scopes);
      const verificationUri = `${ctx.baseUrl()}${runtimePaths.device}`;
      c.header('Cache-Control', 'no-store');
      return c.json({
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(userCode)}`,
        expires_in: runtimeDefaults.deviceCodeLifetime,
        interval: runtimeDefaults.devicePollInterval,
      });
    } catch (error) {
      const oauth = error instanceof OAuthError ? error : new ServerError();
      if (!(error instanceof OAuthError)) ctx.logger.error('device authorization failed', { error: String(error) });
      logOAuthError(ctx, c, { error: oauth.error, description: oauth.description });
      return oauthErrorResponse(oauth, { basicAuthUsed: usesBasicAuth(authorization) });
    }
  });
  return app;
}
