import type { Context } from 'hono';
import type { AppContext } from '../../context.js';
import { type AuthenticationConnection, passwordConnectionOf } from '../authentication-connections.js';
import type { OAuthClient } from '../clients.js';
import { csrfToken } from '../csrf.js';
import { runtimePaths } from '../defaults.js';
import { type Interaction, newInteraction, sealInteraction } from '../interaction.js';
import { LoginPage } from '../pages/login.js';
import { sendPage, textsFor } from '../pages/render.js';
import type { TextKey } from '../pages/texts.js';
import type { FlowContext } from './flow.js';

/** What the login page shows. */
export interface LoginView {
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
export function passwordConnection(
  connections: readonly AuthenticationConnection[],
  chosen: AuthenticationConnection | undefined,
): AuthenticationConnection | undefined {
  if (chosen) return chosen.pluginType === 'UsernamePassword' ? chosen : undefined;
  return passwordConnectionOf(connections);
}
