import { createSign, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import * as oidc from 'openid-client';
import { expect } from 'vitest';
import {
  type PostSigning,
  type SamlSigner,
  samlResponse,
  signPostMessage,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import { Agent } from './agent.js';
import { acsUrl, authorizeUrl, EMAIL_FORMAT, postToAcs, startSamlSignIn } from './saml-idp.js';
import { type CreatedClient, createUser, execSql, type RuntimeServer, rowsOf, rpConfig } from './support.js';

/** Logout through an upstream provider in end-to-end tests: the client's side and the SAML provider's answers. */

/** The client's registered post-logout address: never reached, the agent stops where the browser would leave. */
export const afterLogout = 'http://127.0.0.1:9/bye';
export const SIGNED_OUT = 'You are signed out.';
export const UNCONFIRMED =
  'Signing out at the identity provider you signed in with could not be confirmed: you may still be signed in there.';

export const logoutReturnUrl = (server: RuntimeServer) => `${server.url}/runtime/oauth2/logout-return.idp`;
export const sloUrl = (server: RuntimeServer) => `${server.url}/runtime/saml2/slo.idp`;

/** The client's RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0). */
export function logoutUrl(server: RuntimeServer, params: Record<string, string>): string {
  return `${server.url}/runtime/openidconnect/logout.idp?${new URLSearchParams(params)}`;
}

/** Redeems the code the browser brought back and returns this service's ID token, as issued. */
export async function idTokenFor(server: RuntimeServer, client: CreatedClient, left: URL, state: string) {
  const tokens = await oidc.authorizationCodeGrant(await rpConfig(server, client), left, { expectedState: state });
  if (!tokens.id_token) throw new Error('no ID token');
  return tokens.id_token;
}

/** The browser's session id here (its cookie). */
export function sessionIdOf(agent: Agent): string {
  const id = agent.cookies.get('idsvc_session');
  if (!id) throw new Error('the browser has no session cookie');
  return id;
}

/** The session's row: when it ended, and the upstream sign-in it keeps (opened). */
export async function sessionRow(server: RuntimeServer, id: string) {
  const [row] = rowsOf(await execSql(server)`select ended_at, upstream from sessions where id = ${id}`);
  const upstream = typeof row.upstream === 'string' ? JSON.parse(server.ctx.box.open(row.upstream)) : row.upstream;
  return { endedAt: row.ended_at, upstream: upstream as Record<string, string> | null };
}

/** Asserts the session was ended and the browser holds no session cookie any more. */
export async function expectEnded(server: RuntimeServer, agent: Agent, id: string) {
  expect(agent.cookies.has('idsvc_session')).toBe(false);
  expect((await sessionRow(server, id)).endedAt).not.toBeNull();
}

/** The XML of the SAMLRequest (or SAMLResponse) an HTTP-Redirect address carries, inflated. */
export function redirectMessage(url: URL, name = 'SAMLRequest'): string {
  return inflateRawSync(Buffer.from(url.searchParams.get(name) ?? '', 'base64')).toString('utf8');
}

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

export interface LogoutResponseInput {
  /** Where the response goes: this service's single logout service. */
  slo: string;
  issuer: string;
  inResponseTo: string;
  relayState: string;
  /** Signs the HTTP-Redirect message (SAML 2.0 Bindings §3.4.4.1); none: unsigned. */
  signer?: SamlSigner;
  status?: string;
}

/** The address of an identity provider's LogoutResponse by HTTP-Redirect, signed over its encoded parameters. */
export function logoutResponseUrl(input: LogoutResponseInput): string {
  const xml = [
    '<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"',
    ' xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"',
    ` ID="_${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}"`,
    ` Destination="${input.slo}" InResponseTo="${input.inResponseTo}">`,
    `<saml:Issuer>${input.issuer}</saml:Issuer>`,
    `<samlp:Status><samlp:StatusCode Value="${input.status ?? SUCCESS}"/></samlp:Status>`,
    '</samlp:LogoutResponse>',
  ].join('');
  const encoded = encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'));
  let query = `SAMLResponse=${encoded}&RelayState=${encodeURIComponent(input.relayState)}`;
  if (input.signer) {
    query += `&SigAlg=${encodeURIComponent(RSA_SHA256)}`;
    const signature = createSign('RSA-SHA256').update(query).sign(input.signer.privateKeyPem, 'base64');
    query += `&Signature=${encodeURIComponent(signature)}`;
  }
  return `${input.slo}?${query}`;
}

/**
 * An identity provider's LogoutResponse posted by HTTP-POST: the same response as `logoutResponseUrl` makes, base64
 * of its XML, signed with an enveloped XML signature when `signing` is given; `change` may alter the XML after signing.
 */
export function logoutResponsePost(
  input: Omit<LogoutResponseInput, 'signer'>,
  signing?: PostSigning,
  change: (xml: string) => string = (xml) => xml,
): Record<string, string> {
  const unsigned = new URL(logoutResponseUrl({ ...input, signer: undefined }));
  const plain = redirectMessage(unsigned, 'SAMLResponse');
  const xml = change(signing ? signPostMessage(plain, 'LogoutResponse', signing) : plain);
  return { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), RelayState: input.relayState };
}

/**
 * Signs a new user (or `user` again) in to `client` in a new browser, through a Saml20 connection (by `whr=name:`),
 * the provider answering with a signed assertion of the user's e-mail; returns the browser, where it left for the
 * client, the user, the NameID, the assertion's SessionIndex and the session id here.
 */
export async function samlSignedIn(
  server: RuntimeServer,
  client: CreatedClient,
  signer: SamlSigner,
  provider: { name: string; entityId: string },
  existing?: Awaited<ReturnType<typeof createUser>>,
) {
  const user = existing ?? (await createUser(server));
  const agent = new Agent(server.url);
  const sent = await startSamlSignIn(agent, authorizeUrl(server, client, { whr: `name:${provider.name}`, state: 's' }));
  const response = samlResponse({
    issuer: provider.entityId,
    destination: acsUrl(server),
    audience: `${server.url}/runtime/saml2`,
    inResponseTo: sent.id,
    nameId: String(user.email),
    nameIdFormat: EMAIL_FORMAT,
    signer,
  });
  const sessionIndex = /SessionIndex="([^"]+)"/.exec(Buffer.from(response, 'base64').toString('utf8'))?.[1];
  const left = (await postToAcs(server, agent, sent, response)).left!;
  return { agent, left, user, nameId: String(user.email), sessionIndex: sessionIndex!, sessionId: sessionIdOf(agent) };
}

/** What an authorization request of `client` with prompt=none gets in the browser: `code`, the error, or `none`. */
export async function promptNone(server: RuntimeServer, client: CreatedClient, agent: Agent): Promise<string> {
  const outcome = await agent.navigate(authorizeUrl(server, client, { prompt: 'none', state: 'probe' }));
  return outcome.left?.searchParams.get('error') ?? (outcome.left?.searchParams.has('code') ? 'code' : 'none');
}

type Browser = { agent: Agent; sessionId: string };

/** Asserts each browser's session lives: not ended, and prompt=none gets a code. */
export async function expectSessionsAlive(server: RuntimeServer, client: CreatedClient, browsers: Browser[]) {
  for (const { agent, sessionId } of browsers) {
    expect((await sessionRow(server, sessionId)).endedAt).toBeNull();
    expect(await promptNone(server, client, agent)).toBe('code');
  }
}

/** Asserts each browser's session ended: `ended_at` set, and prompt=none gets login_required. */
export async function expectSessionsEnded(server: RuntimeServer, client: CreatedClient, browsers: Browser[]) {
  for (const { agent, sessionId } of browsers) {
    expect((await sessionRow(server, sessionId)).endedAt).not.toBeNull();
    expect(await promptNone(server, client, agent)).toBe('login_required');
  }
}

/**
 * Asserts the logout finished on the signed-out page saying the provider's sign-out is unconfirmed, with one event
 * 4111 (`logged`: those since the answer came) for the connection; a description ending in a space ends in the
 * request's ID.
 */
export function expectUnconfirmedSignOut(
  page: { status: number; html: string },
  logged: Record<string, unknown>[],
  expected: { connection: string; description: string; requestId: string },
): void {
  expect(page.status).toBe(200);
  expect(page.html).toContain(SIGNED_OUT);
  expect(page.html).toContain(UNCONFIRMED);
  const { description, requestId } = expected;
  expect(logged).toEqual([
    expect.objectContaining({
      eventId: 4111,
      error: 'invalid_response',
      description: description.endsWith(' ') ? `${description}${requestId}` : description,
      connection: expected.connection,
    }),
  ]);
}
