import * as oidc from 'openid-client';
import { beforeAll, expect } from 'vitest';
import type { SamlSigner } from '../../packages/server/src/test-support/saml-identity-provider.js';
import {
  makeWsFedSigner,
  type WsFedEncryption,
  type WsFedTokenInput,
  wsfedEncryptedResult,
  wsfedResult,
} from '../../packages/server/src/test-support/wsfed-identity-provider.js';
import { apiBase } from '../helpers/api.js';
import type { Agent, Outcome } from './agent.js';
import { authorizeUrl, type CreatedClient, createClient, rpConfig, runtimeServerPerFile, unique } from './support.js';

export const redirectUri = 'http://127.0.0.1:9/cb';
/** The security token service's sign-on address: never reached, the agent stops where the browser would leave. */
export const stsUrl = 'http://127.0.0.1:9/adfs/ls/';
export const stsEntityId = 'urn:idsvc-test:wsfed-sts';
export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/**
 * The server of the test file with a WsFederation authentication connection to a security token service whose
 * signing certificate is `signer`'s, a client that signs in through it, and what a browser does on the way.
 */
export function wsfedRelyingParty() {
  const rp = runtimeServerPerFile();
  const the = {} as { signer: SamlSigner; name: string; connectionId: string; client: CreatedClient };
  beforeAll(async () => {
    the.signer = await makeWsFedSigner();
    expect((await rp.server.admin.post(`${apiBase}/certificates`, { body: the.signer.base64 })).status).toBe(200);
    the.name = unique('WsFedSts');
    const created = await rp.server.admin.post(`${apiBase}/connections`, {
      body: {
        name: the.name,
        connectionType: 'Authentication',
        pluginType: 'WsFederation',
        configuration: { entityId: stsEntityId, singleSignOnUrl: stsUrl, signingCertificates: [the.signer.thumbprint] },
      },
    });
    expect(created.status).toBe(200);
    the.connectionId = (created.body as { id: string }).id;
    the.client = await createClient(rp.server, {
      configuration: { redirectUris: [redirectUri] },
      dependencyConnectionNames: ['UsernamePassword', the.name],
    });
  });

  const authorize = (params: Record<string, string>) => authorizeUrl(rp.server, the.client, params);
  const realm = () => `${rp.server.url}/runtime/wsfed`;
  const replyUrl = () => `${rp.server.url}/runtime/wsfed/reply.idp`;

  return {
    rp,
    the,
    authorize,
    realm,
    replyUrl,
    /** Starts a sign-in through the security token service; returns the address the browser is sent to. */
    async startSignIn(agent: Agent, params: Record<string, string> = {}): Promise<URL> {
      const outcome = await agent.navigate(authorize({ whr: `name:${the.name}`, state: 's1', ...params }));
      if (!outcome.left) throw new Error(`no redirect to the STS: ${outcome.page?.status} ${outcome.page?.html}`);
      return outcome.left;
    },
    /** The service's wresult for the person: a SAML 2.0 token for this service, signed with `signer`. */
    token(input: Partial<WsFedTokenInput> & { nameId: string }, collection = false): string {
      const defaults = { issuer: stsEntityId, audience: realm(), nameIdFormat: EMAIL_FORMAT, signer: the.signer };
      return wsfedResult({ format: 'saml2', ...defaults, ...input }, { collection });
    },
    /**
     * The service's wresult with its token encrypted as `encryption` says (for this service's certificate, as its
     * metadata publishes it): SAML 2.0 by default, signed with `signer`.
     */
    encryptedToken(
      input: Partial<WsFedTokenInput> & { nameId: string },
      encryption: WsFedEncryption,
      collection = false,
    ): Promise<string> {
      const defaults = { issuer: stsEntityId, audience: realm(), nameIdFormat: EMAIL_FORMAT, signer: the.signer };
      return wsfedEncryptedResult({ format: 'saml2', ...defaults, ...input }, encryption, { collection });
    },
    /** The browser posts the service's sign-in response to the reply address (as its auto-submitting form does). */
    post(agent: Agent, sent: URL, wresult: string, wa = 'wsignin1.0'): Promise<Outcome> {
      const wctx = sent.searchParams.get('wctx') ?? '';
      return agent.navigate(replyUrl(), { form: { wa, wresult, wctx } });
    },
    /** Finishes the code flow at the client's address and returns the ID token's claims. */
    async idTokenClaims(left: URL, state: string) {
      const config = await rpConfig(rp.server, the.client);
      return (await oidc.authorizationCodeGrant(config, left, { expectedState: state })).claims();
    },
    /** Whether the browser holds a session here: prompt=none without whr answers a code, else login_required. */
    async hasSession(agent: Agent): Promise<boolean> {
      const left = (await agent.navigate(authorize({ prompt: 'none', state: 'probe' }))).left!;
      return left.searchParams.has('code');
    },
  };
}
