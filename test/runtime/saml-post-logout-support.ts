import { beforeAll, expect } from 'vitest';
import type { SamlSigner } from '../../packages/server/src/test-support/saml-identity-provider.js';
import { Agent, type Page } from './agent.js';
import {
  createSaml20Connection,
  HTTP_POST,
  HTTP_REDIRECT,
  keyDescriptors,
  postedMessage,
  uploadedSigner,
} from './saml-idp.js';
import { type CreatedClient, createClient, type RuntimeServer, runtimeServerPerFile, unique } from './support.js';
import { afterLogout, idTokenFor, samlSignedIn } from './upstream-logout-support.js';

/** Single logout with SAML 2.0 providers by HTTP-POST in end-to-end tests: the file's server, providers and client. */

type Provider = { name: string; entityId: string };

export interface SamlPostLogoutSetup {
  rp: { server: RuntimeServer };
  /** A provider whose single logout service takes HTTP-POST only, with a ResponseLocation; never reached. */
  postIdp: Provider & { slo: string; sloResponse: string };
  /** A provider whose single logout service takes HTTP-Redirect (its LogoutRequest may come by HTTP-POST all the same). */
  redirectIdp: Provider & { slo: string };
  /** Set before the tests: the providers' signing key, the client, and this service's certificate from its metadata. */
  signer: SamlSigner;
  client: CreatedClient;
  serviceCertificate: string;
}

/** Starts the file's server with the two providers' connections and a client signing in through them. */
export function samlPostLogoutSetup(): SamlPostLogoutSetup {
  const setup = {
    rp: runtimeServerPerFile(),
    postIdp: {
      name: '',
      entityId: 'urn:idsvc-test:saml-post-slo',
      slo: 'http://127.0.0.1:7/idp/slo-post',
      sloResponse: 'http://127.0.0.1:7/idp/slo-post/response',
    },
    redirectIdp: { name: '', entityId: 'urn:idsvc-test:saml-post-slo-redirect', slo: 'http://127.0.0.1:7/idp2/slo' },
  } as SamlPostLogoutSetup;
  const { rp, postIdp, redirectIdp } = setup;
  beforeAll(async () => {
    setup.signer = await uploadedSigner(rp.server);
    postIdp.name = unique('SamlPostSlo');
    await createSaml20Connection(rp.server, {
      name: postIdp.name,
      entityId: postIdp.entityId,
      signer: setup.signer,
      configuration: {
        singleLogoutServices: [{ binding: HTTP_POST, location: postIdp.slo, responseLocation: postIdp.sloResponse }],
      },
    });
    redirectIdp.name = unique('SamlPostSloRedirect');
    await createSaml20Connection(rp.server, {
      name: redirectIdp.name,
      entityId: redirectIdp.entityId,
      signer: setup.signer,
      configuration: { singleLogoutServices: [{ binding: HTTP_REDIRECT, location: redirectIdp.slo }] },
    });
    setup.client = await createClient(rp.server, {
      configuration: { redirectUris: ['http://127.0.0.1:9/cb'], postLogoutRedirectUris: [afterLogout] },
      dependencyConnectionNames: ['UsernamePassword', postIdp.name, redirectIdp.name],
    });
    const metadata = (await new Agent(rp.server.url).navigate(`${rp.server.url}/runtime/saml2/metadata.idp`)).page!;
    setup.serviceCertificate = keyDescriptors(metadata.html).signing[0];
  });
  return setup;
}

/** Signs a new user in through the provider; the browser, its ID token here, NameID, SessionIndex and session. */
export async function postLogoutSignedIn(setup: SamlPostLogoutSetup, provider: Provider = setup.postIdp) {
  const { rp, client, signer } = setup;
  const { agent, left, nameId, sessionIndex, sessionId } = await samlSignedIn(rp.server, client, signer, provider);
  return { agent, idToken: await idTokenFor(rp.server, client, left, 's'), nameId, sessionIndex, sessionId };
}

export type SignedIn = Awaited<ReturnType<typeof postLogoutSignedIn>>;

/** Asserts the page posts a SAML message to the provider: its headers and form; returns the message. */
export function expectPostPage(page: Page | undefined, action: string) {
  expect(page?.status).toBe(200);
  expect(page!.headers.get('cache-control')).toBe('no-store');
  expect(page!.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:7;");
  const posted = postedMessage(page!);
  expect(posted.action).toBe(action);
  return posted;
}

/**
 * Wraps a validly signed message in another root element (signature wrapping): the root claims what `root` says and
 * carries the signature, which still references the original message, now inside the root's Extensions.
 */
export function wrapped(root: string) {
  return (signed: string) => {
    const signature = /<Signature [\s\S]*<\/Signature>/.exec(signed)?.[0] ?? '';
    const inner = signed.replace(signature, '');
    return root.replace('<samlp:Extensions/>', `${signature}<samlp:Extensions>${inner}</samlp:Extensions>`);
  };
}

export const NS =
  'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';
