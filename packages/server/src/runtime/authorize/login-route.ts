import { Hono } from 'hono';
import { checkUserPassword, findUserForLogin, maxFailedAttempts } from '../../auth/lockout.js';
import type { AppContext } from '../../context.js';
import {
  type AuthenticationConnection,
  authenticationConnectionsOf,
  chooseByWhr,
} from '../authentication-connections.js';
import { findClient } from '../clients.js';
import { CSRF_FIELD, csrfValid } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { deviceClientOf } from '../device/device-page.js';
import { readForm } from '../form.js';
import { openInteraction } from '../interaction.js';
import { OAuthError } from '../oauth-errors.js';
import type { TextKey } from '../pages/texts.js';
import { errorPage } from './error-page.js';
import { type LoginView, passwordConnection, renderLogin } from './login-page.js';
import { PageError } from './request.js';
import { continueSignIn } from './sign-in-steps.js';

/**
 * `POST /runtime/oauth2/login.idp`: check the interaction and its CSRF token, check the password (with lockout),
 * start the session, then go on with the interaction (authorization request or device confirmation).
 */
export function loginRoute(ctx: AppContext): Hono {
  const app = new Hono();
  app.post(runtimePaths.login, async (c) => {
    let form: URLSearchParams;
    try {
      form = await readForm(c);
    } catch (error) {
      if (error instanceof OAuthError)
        return errorPage(ctx, c, new PageError(error.error, error.description), undefined);
      throw error;
    }
    const interaction = openInteraction(ctx.box, form.get('interaction') ?? undefined);
    if (!interaction) return errorPage(ctx, c, new PageError('invalid_request', 'the sign-in has expired'), undefined);
    if (!(await csrfValid(ctx, c, 'login', [interaction.id], form.get(CSRF_FIELD) ?? undefined))) {
      return errorPage(
        ctx,
        c,
        new PageError('invalid_request', 'the form is not valid here (CSRF token)', 403),
        undefined,
      );
    }
    const params = new URLSearchParams(interaction.params ?? []);
    const client =
      interaction.kind === 'device'
        ? await deviceClientOf(ctx, interaction.userCode ?? '')
        : await findClient(ctx.db, params.get('client_id') ?? '');
    if (!client) return errorPage(ctx, c, new PageError('invalid_request', 'the sign-in has expired'), undefined);
    const connections = await authenticationConnectionsOf(ctx.db, client);
    let chosen: AuthenticationConnection | undefined;
    try {
      chosen = params.get('whr') ? chooseByWhr(connections, params.get('whr') ?? '') : undefined;
    } catch {
      chosen = undefined;
    }
    const password = passwordConnection(connections, chosen);
    const username = form.get('username') ?? '';
    const uiLocales = params.get('ui_locales') ?? undefined;
    const view: LoginView = {
      client,
      connections,
      chosen,
      interaction,
      uiLocales,
      username,
      redirectUri: params.get('redirect_uri') ?? undefined,
    };
    if (!password) return renderLogin(ctx, c, { ...view, error: 'login.noPasswordConnection' });
    const maxAttempts = await maxFailedAttempts(ctx.db, [password.name]);
    const check = await checkUserPassword(ctx.db, username, form.get('password') ?? '', maxAttempts);
    let user = check.ok ? check.user : undefined;
    // The right password, expired or to be reset: the sign-in goes on to choosing a new one.
    if (!check.ok && check.reason === 'password_not_active') user = await findUserForLogin(ctx.db, username);
    if (!user) {
      const error: TextKey = !check.ok && check.reason === 'locked' ? 'login.locked' : 'login.failed';
      return renderLogin(ctx, c, { ...view, error });
    }
    return continueSignIn(ctx, c, { interaction, client, user, connectionName: password.name, amr: ['pwd'] });
  });
  return app;
}
