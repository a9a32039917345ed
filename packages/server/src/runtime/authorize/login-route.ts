import type { Context } from 'hono';
import { Hono } from 'hono';
import { checkUserPassword, findUserForLogin, maxFailedAttempts } from '../../auth/lockout.js';
import type { AppContext } from '../../context.js';
import {
  type AuthenticationConnection,
  authenticationConnectionsOf,
  chooseByWhr,
  passwordConnectionOf,
} from '../authentication-connections.js';
import { findClient, type OAuthClient } from '../clients.js';
import { CSRF_FIELD, csrfToken, csrfValid } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { deviceClientOf } from '../device/device-page.js';
import { readForm } from '../form.js';
import { type Interaction, newInteraction, openInteraction, sealInteraction } from '../interaction.js';
import { OAuthError } from '../oauth-errors.js';
import { LoginPage } from '../pages/login.js';
import { sendPage, textsFor } from '../pages/render.js';
import type { TextKey } from '../pages/texts.js';
import { errorPage, type FlowContext } from './flow.js';
import { PageError } from './request.js';
import { continueSignIn } from './sign-in-steps.js';

/** What the login page shows. */
interface LoginView {
  client: OAuthClient;
  connections: AuthenticationConnection[];
  chosen?: AuthenticationConnection | undefined;
  interaction: Interaction;
  uiLocales?: string | undefined;
  username?: string | undefined;
  error?: TextKey | undefined;
  /** The redirect address the sign-in ends at (the page's CSP lets the form reach it). */
  redirectUri?: string | undefined;
  /** Other connections to sign in with, by address. */
  others?: { name: string; href: string }[];
}

/** The login page of an authorization request (the request travels sealed in the form). */
export function showLogin(flow: FlowContext, options: { error?: TextKey; username?: string }): Promise<Response> {
  const { request, params } = flow;
  const others = flow.connections
    .filter((c) => ['GenericOidcProvider', 'Saml20', 'WsFederation'].includes(c.pluginType))
    .map((c) => {
      const withWhr = new URLSearchParams(params);
      withWhr.set('whr', `uuid:${c.id}`);
      return { name: c.name, href: `${runtimePaths.authorization}?${withWhr}` };
    });
  return renderLogin(flow.ctx, flow.c, {
    client: flow.client,
    connections: flow.connections,
    chosen: flow.chosen,
    interaction: newInteraction({ kind: 'authorize', params: [...params] }),
    uiLocales: request.uiLocales,
    username: options.username ?? request.loginHint,
    error: options.error,
    redirectUri: request.redirectUri,
    others,
  });
}

/** Renders the login page with a fresh CSRF token bound to this browser and interaction. */
export async function renderLogin(ctx: AppContext, c: Context, view: LoginView): Promise<Response> {
  const t = await textsFor(ctx, c, view.uiLocales);
  const password = passwordConnection(view.connections, view.chosen);
  const page = LoginPage({
    t,
    clientName: view.client.name,
    interaction: sealInteraction(ctx.box, view.interaction),
    csrf: await csrfToken(ctx, c, 'login', [view.interaction.id]),
    username: view.username,
    error: view.error === undefined ? undefined : t(view.error),
    passwordAllowed: password !== undefined,
    forgotPasswordUrl: password
      ? `${runtimePaths.forgotPassword}?connectionId=${encodeURIComponent(password.id)}`
      : undefined,
    others: view.others ?? [],
  });
  return sendPage(ctx, c, page, { formTargets: view.redirectUri ? [view.redirectUri] : [] });
}

/** The username-and-password connection of the sign-in: the one `whr` chose, else the one in use. */
function passwordConnection(
  connections: readonly AuthenticationConnection[],
  chosen: AuthenticationConnection | undefined,
): AuthenticationConnection | undefined {
  if (chosen) return chosen.pluginType === 'UsernamePassword' ? chosen : undefined;
  return passwordConnectionOf(connections);
}

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
