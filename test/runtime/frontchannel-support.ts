import * as oidc from 'openid-client';
import { expect } from 'vitest';
import { type Agent, decode, type Page, signIn } from './agent.js';
import { type CreatedClient, type RuntimeServer, rpConfig, TEST_REDIRECT_URI, testPassword } from './support.js';

/** Front-channel logout to clients in end-to-end tests: what the signing-out page holds, and signing in to clients. */

/** The addresses of the page's iframes, in order, as the browser reads them. */
export function framesOf(page: Page): string[] {
  return [...page.html.matchAll(/<iframe\b[^>]*\bsrc="([^"]*)"[^>]*>/g)].map((m) => decode(m[1]));
}

/** The page's meta refresh: the seconds and the address, as the browser reads them. */
export function refreshOf(page: Page): { delay: number; url: string } | undefined {
  const content = /<meta http-equiv="refresh" content="([^"]*)"/.exec(page.html)?.[1];
  const match = content === undefined ? null : /^(\d+);url=(.*)$/.exec(decode(content));
  return match ? { delay: Number(match[1]), url: match[2] } : undefined;
}

/** The page's Continue link (the one link of the signing-out page). */
export function continueLinkOf(page: Page): string | undefined {
  const href = /<p class="links"><a href="([^"]*)">/.exec(page.html)?.[1];
  return href === undefined ? undefined : decode(href);
}

/** The directive of the page's Content-Security-Policy, as written (undefined when the policy has none). */
export function cspDirective(page: Page, name: string): string | undefined {
  const policy = page.headers.get('content-security-policy') ?? '';
  return policy
    .split(';')
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith(`${name} `));
}

/** The address the iframe of a client with `frontchannelLogoutSessionRequired` loads for the session. */
export function withSession(server: RuntimeServer, uri: string, sid: unknown): string {
  const url = new URL(uri);
  const added = new URLSearchParams({ iss: server.issuer, sid: String(sid) }).toString();
  return `${url.origin}${url.pathname}${url.search ? `${url.search}&` : '?'}${added}`;
}

/** Asserts the page is the signing-out page going on to `next`, with exactly `frames` and frame-src `origins`. */
export function expectSigningOutPage(page: Page, expected: { frames: string[]; next: string; origins: string[] }) {
  expect(page.status).toBe(200);
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(framesOf(page)).toEqual(expected.frames);
  expect(refreshOf(page)).toEqual({ delay: 2, url: expected.next });
  expect(continueLinkOf(page)).toBe(expected.next);
  expect(cspDirective(page, 'frame-src')).toBe(`frame-src ${expected.origins.join(' ')}`);
  expect(cspDirective(page, 'default-src')).toBe("default-src 'none'");
  expect(cspDirective(page, 'script-src')).toBe("script-src 'none'");
  expect(cspDirective(page, 'form-action')).toBe("form-action 'self'");
}

/** Signs in to the client in the browser through the code flow (openid-client); the ID token and its claims. */
export async function signedIn(server: RuntimeServer, agent: Agent, client: CreatedClient, userName: string) {
  const config = await rpConfig(server, client);
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: TEST_REDIRECT_URI, scope: 'openid', nonce });
  const callback = await signIn(agent, url, userName, testPassword);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { expectedNonce: nonce });
  return { idToken: tokens.id_token!, claims: tokens.claims()! };
}
