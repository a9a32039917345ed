import { inflateRawSync } from 'node:zlib';
import * as oidc from 'openid-client';
import { expect } from 'vitest';
import { makeSamlSigner, type SamlSigner } from '../../packages/server/src/test-support/saml-identity-provider.js';
import { apiBase } from '../helpers/api.js';
import { type Agent, formsOf, type Page } from './agent.js';
import { authorizeUrl, type CreatedClient, type RuntimeServer, rpConfig } from './support.js';

/** Upstream SAML 2.0 sign-in in end-to-end tests: the identity provider's side, as the browser carries it. */

export const redirectUri = 'http://127.0.0.1:9/cb';
/** The identity provider's sign-on address: never reached, the agent stops where the browser would leave. */
export const ssoUrl = 'http://127.0.0.1:9/idp/sso';
export const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** A new signing certificate of an identity provider, uploaded to the server's certificate store. */
export async function uploadedSigner(server: RuntimeServer): Promise<SamlSigner> {
  const signer = await makeSamlSigner();
  const uploaded = await server.admin.post(`${apiBase}/certificates`, { body: signer.base64 });
  expect(uploaded.status).toBe(200);
  return signer;
}

/** Creates a Saml20 authentication connection signing with `signer`'s certificate; returns its id. */
export async function createSaml20Connection(
  server: RuntimeServer,
  input: { name: string; entityId: string; signer: SamlSigner; configuration?: Record<string, unknown> },
): Promise<string> {
  const created = await server.admin.post(`${apiBase}/connections`, {
    body: {
      name: input.name,
      connectionType: 'Authentication',
      pluginType: 'Saml20',
      configuration: {
        entityId: input.entityId,
        singleSignOnServices: [{ binding: HTTP_REDIRECT, location: ssoUrl }],
        signingCertificates: [input.signer.thumbprint],
        ...input.configuration,
      },
    },
  });
  expect(created.status).toBe(200);
  return (created.body as { id: string }).id;
}

export { authorizeUrl };

export const acsUrl = (server: RuntimeServer) => `${server.url}/runtime/saml2/acs.idp`;

/** The AuthnRequest the browser carries to the identity provider, decoded, and the RelayState beside it. */
export interface SentRequest {
  url: URL;
  xml: string;
  id: string;
  relayState: string;
}

/** Opens the authorization request and returns the AuthnRequest the browser is sent to the identity provider with. */
export async function startSamlSignIn(agent: Agent, authorization: string): Promise<SentRequest> {
  const outcome = await agent.navigate(authorization);
  const url = outcome.left;
  if (!url) throw new Error(`no redirect to the identity provider: ${outcome.page?.status} ${outcome.page?.html}`);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  return { url, xml, id: /\bID="([^"]+)"/.exec(xml)?.[1] ?? '', relayState: url.searchParams.get('RelayState') ?? '' };
}

/** Posts the identity provider's response to the ACS with the RelayState, as the browser does. */
export const postToAcs = (server: RuntimeServer, agent: Agent, sent: SentRequest, SAMLResponse: string) =>
  agent.navigate(acsUrl(server), { form: { SAMLResponse, RelayState: sent.relayState } });

/** Whether the browser has a session here: an authorization request with prompt=none gets a code. */
export async function hasSession(server: RuntimeServer, client: CreatedClient, agent: Agent): Promise<boolean> {
  const outcome = await agent.navigate(authorizeUrl(server, client, { prompt: 'none', state: 'probe' }));
  return outcome.left?.searchParams.has('code') === true;
}

/** The certificates of the metadata's KeyDescriptors, PEM, by use. */
export function keyDescriptors(xml: string): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [, use, base64] of xml.matchAll(
    /<KeyDescriptor use="(\w+)">[\s\S]*?<ds:X509Certificate>([^<]*)<\/ds:X509Certificate>/g,
  )) {
    const body = base64
      .replace(/\s/g, '')
      .match(/.{1,64}/g)
      ?.join('\n');
    found[use] = [...(found[use] ?? []), `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`];
  }
  return found;
}

/** Finishes the code flow at the client's address and returns the ID token's claims. */
export async function finishCodeFlow(server: RuntimeServer, client: CreatedClient, left: URL, state: string) {
  const tokens = await oidc.authorizationCodeGrant(await rpConfig(server, client), left, { expectedState: state });
  return tokens.claims();
}

export const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** A SAML message the browser posts to another origin: the page's form, and its message decoded (base64, not deflated). */
export interface PostedMessage {
  page: Page;
  action: string;
  fields: Record<string, string>;
  xml: string;
  id: string;
  relayState: string;
}

/** The form a page of this service posts a SAML message with (SAMLRequest, else SAMLResponse), decoded. */
export function postedMessage(page: Page): PostedMessage {
  const [form] = formsOf(page);
  if (form?.method !== 'POST') throw new Error(`no form that posts: ${page.status} ${page.html}`);
  const message = form.fields.SAMLRequest ?? form.fields.SAMLResponse ?? '';
  const xml = Buffer.from(message, 'base64').toString('utf8');
  return {
    page,
    action: form.action,
    fields: form.fields,
    xml,
    id: /\bID="([^"]+)"/.exec(xml)?.[1] ?? '',
    relayState: form.fields.RelayState ?? '',
  };
}

/** Opens the authorization request and returns the AuthnRequest the page posts to the identity provider (HTTP-POST). */
export async function startSamlPostSignIn(agent: Agent, authorization: string): Promise<PostedMessage> {
  const outcome = await agent.navigate(authorization);
  if (!outcome.page) throw new Error(`no page that posts to the identity provider: left for ${outcome.left}`);
  return postedMessage(outcome.page);
}

/** Posts the identity provider's response to the ACS with the RelayState of a posted AuthnRequest. */
export const postToAcsAfterPost = (server: RuntimeServer, agent: Agent, sent: PostedMessage, SAMLResponse: string) =>
  agent.navigate(acsUrl(server), { form: { SAMLResponse, RelayState: sent.relayState } });
