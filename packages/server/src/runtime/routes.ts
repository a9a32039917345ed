import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono } from 'hono';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/env.js';
import { assetsRoute } from './assets-route.js';
import { authorizeRoute } from './authorize/authorize-route.js';
import { changePasswordRoute } from './authorize/change-password-route.js';
import { consentRoute } from './authorize/consent-route.js';
import { loginRoute } from './authorize/login-route.js';
import { pushedAuthorizationRoute } from './authorize/pushed-authorization-route.js';
import { secondFactorRoute } from './authorize/second-factor-route.js';
import { cors } from './cors.js';
import { deviceAuthorizationRoute } from './device/device-authorization-route.js';
import { devicePageRoute } from './device/device-page.js';
import { discoveryRoute } from './discovery-route.js';
import { endSessionRoute } from './end-session-route.js';
import { forgotPasswordRoute } from './forgot-password-route.js';
import { authorizationCodeGrant } from './grants/authorization-code.js';
import { DEVICE_CODE_GRANT, deviceCodeGrant } from './grants/device-code.js';
import { scheduleHousekeeping } from './housekeeping.js';
import { introspectionRoute } from './introspection-route.js';
import { jwksRoute } from './jwks-route.js';
import { scheduleKeyRotation } from './key-rotation.js';
import { selfServicePageRoutes } from './reset-password/routes.js';
import { revocationRoute } from './revocation-route.js';
import { tokenRoute } from './token-endpoint.js';
import { tokenFastPath } from './token-fast-path.js';
import { upstreamCallbackRoute } from './upstream/callback-route.js';
import { logoutReturnRoute } from './upstream/logout-return-route.js';
import { upstreamBackchannelLogoutRoute } from './upstream/oidc-backchannel-route.js';
import { samlAcsRoute } from './upstream/saml-acs-route.js';
import { samlMetadataRoute } from './upstream/saml-metadata-route.js';
import { samlSloRoute } from './upstream/saml-slo-route.js';
import { samlSloSoapRoute } from './upstream/saml-slo-soap-route.js';
import { wsfedMetadataRoute } from './upstream/wsfed-metadata-route.js';
import { wsfedReplyRoute } from './upstream/wsfed-reply-route.js';
import { userinfoRoute } from './userinfo-route.js';

/** The token endpoint's grants beyond its defaults (password, refresh_token, client_credentials). */
const grants = { authorization_code: authorizationCodeGrant, [DEVICE_CODE_GRANT]: deviceCodeGrant };

/**
 * The node:http handler that serves plain token requests before the web framework (`token-fast-path.ts`); the
 * server calls it first and hands the request to the framework when it answers false.
 */
export function runtimeFastPath(ctx: AppContext): (req: IncomingMessage, res: ServerResponse) => boolean {
  return tokenFastPath(ctx, grants);
}

/** The browser- and client-facing endpoints under /runtime (DESIGN 1.6). */
export function runtimeRoutes(ctx: AppContext): Hono<AppEnv> {
  scheduleKeyRotation(ctx);
  scheduleHousekeeping(ctx);
  const app = new Hono<AppEnv>();
  app.use('/runtime/*', cors(ctx));
  app.route('/', discoveryRoute(ctx));
  app.route('/', jwksRoute(ctx));
  app.route('/', tokenRoute(ctx, grants));
  app.route('/', authorizeRoute(ctx));
  app.route('/', pushedAuthorizationRoute(ctx));
  app.route('/', loginRoute(ctx));
  app.route('/', consentRoute(ctx));
  app.route('/', secondFactorRoute(ctx));
  app.route('/', changePasswordRoute(ctx));
  app.route('/', userinfoRoute(ctx));
  app.route('/', revocationRoute(ctx));
  app.route('/', introspectionRoute(ctx));
  app.route('/', endSessionRoute(ctx));
  app.route('/', deviceAuthorizationRoute(ctx));
  app.route('/', devicePageRoute(ctx));
  app.route('/', upstreamCallbackRoute(ctx));
  app.route('/', upstreamBackchannelLogoutRoute(ctx));
  app.route('/', samlAcsRoute(ctx));
  app.route('/', samlMetadataRoute(ctx));
  app.route('/', samlSloRoute(ctx));
  app.route('/', samlSloSoapRoute(ctx));
  app.route('/', logoutReturnRoute(ctx));
  app.route('/', wsfedReplyRoute(ctx));
  app.route('/', wsfedMetadataRoute(ctx));
  app.route('/', forgotPasswordRoute(ctx));
  app.route('/', selfServicePageRoutes(ctx));
  app.route('/', assetsRoute());
  return app;
}
