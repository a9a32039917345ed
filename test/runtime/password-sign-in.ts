import * as oidc from 'openid-client';
import { Agent, type Outcome, type Page } from './agent.js';
import { type CreatedClient, type RuntimeServer, rpConfig, testPassword } from './support.js';

/** What a sign-in started by `startPasswordSignIn` needs to finish: its agent, the next step and the RP's checks. */
export interface PasswordSignIn {
  agent: Agent;
  /** Where the password left the sign-in: the next page, or the address it redirected to. */
  next: Outcome;
  config: oidc.Configuration;
  verifier: string;
  state: string;
  nonce: string;
}

/**
 * Opens an authorization request of the client (code flow, PKCE S256, scope openid, state and nonce) and signs in
 * with the user's password on the login page; returns where that led.
 */
export async function startPasswordSignIn(
  server: RuntimeServer,
  client: CreatedClient,
  redirectUri: string,
  userName: string,
  password = testPassword,
): Promise<PasswordSignIn> {
  const config = await rpConfig(server, client);
  const { url, verifier, state, nonce } = await authorizationRequest(config, redirectUri);
  const agent = new Agent(server.url);
  const login = await agent.navigate(url.toString());
  const next = await agent.submit(login.page as Page, { username: userName, password });
  return { agent, next, config, verifier, state, nonce };
}

/**
 * An authorization request of openid-client: scope openid, a fresh state and nonce, PKCE S256, with `params` over
 * them; and the checks openid-client needs for its answer.
 */
export async function authorizationRequest(
  config: oidc.Configuration,
  redirectUri: string,
  params: Record<string, string> = {},
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...params,
  });
  const checks = { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce };
  return { url, verifier, state, nonce, checks };
}
