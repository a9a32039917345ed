import { beforeAll, describe, expect, it } from 'vitest';
import {
  postSignatureVerifies,
  type SamlSigner,
  samlResponse,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import { Agent } from './agent.js';
import {
  acsUrl,
  authorizeUrl,
  createSaml20Connection,
  EMAIL_FORMAT,
  finishCodeFlow,
  HTTP_POST,
  HTTP_REDIRECT,
  keyDescriptors,
  type PostedMessage,
  postToAcsAfterPost,
  redirectUri,
  startSamlPostSignIn,
  startSamlSignIn,
  uploadedSigner,
} from './saml-idp.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  events,
  execSql,
  rowsOf,
  runtimeServerPerFile,
  unique,
} from './support.js';
import { sloUrl } from './upstream-logout-support.js';

const rp = runtimeServerPerFile();
/** The identity providers' sign-on services: on another origin than the client's, never reached. */
const ssoPost = 'http://127.0.0.1:7/idp/sso-post';
const ssoRedirect = 'http://127.0.0.1:7/idp/sso-redirect';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
/** A Saml20 connection's entity id and configuration; its name once created. */
const saml20 = (entityId: string, configuration: Record<string, unknown>) => ({ name: '', entityId, configuration });
const idp = {
  /** Single sign-on by HTTP-POST only, requests unsigned. */
  post: saml20('urn:idsvc-test:saml-post-idp', { singleSignOnServices: [{ binding: HTTP_POST, location: ssoPost }] }),
  /** The same, its AuthnRequests signed. */
  signed: saml20('urn:idsvc-test:saml-post-idp-signed', {
    singleSignOnServices: [{ binding: HTTP_POST, location: ssoPost }],
    signAuthenticationRequests: true,
  }),
  /** Both bindings, HTTP-POST listed first. */
  both: saml20('urn:idsvc-test:saml-post-idp-both', {
    singleSignOnServices: [
      { binding: HTTP_POST, location: ssoPost },
      { binding: HTTP_REDIRECT, location: ssoRedirect },
    ],
  }),
  /** Neither binding this service sends by. */
  neither: saml20('urn:idsvc-test:saml-post-idp-artifact', {
    singleSignOnServices: [{ binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact', location: ssoPost }],
  }),
};
type Idp = (typeof idp)[keyof typeof idp];
let signer: SamlSigner;
let client: CreatedClient;
/** This service's signing certificate, as its metadata publishes it. */
let serviceCertificate: string;

beforeAll(async () => {
  signer = await uploadedSigner(rp.server);
  for (const connection of Object.values(idp)) {
    connection.name = unique('SamlPostIdp');
    await createSaml20Connection(rp.server, { ...connection, signer });
  }
  client = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri] },
    dependencyConnectionNames: ['UsernamePassword', ...Object.values(idp).map((c) => c.name)],
  });
  const metadata = (await new Agent(rp.server.url).navigate(`${rp.server.url}/runtime/saml2/metadata.idp`)).page!;
  serviceCertificate = keyDescriptors(metadata.html).signing[0];
});

const authorize = (connection: Idp, params: Record<string, string> = {}) =>
  authorizeUrl(rp.server, client, { whr: `name:${connection.name}`, state: 'p1', ...params });

/** The identity provider's signed response to the posted AuthnRequest, for the person. */
const answer = (connection: Idp, sent: PostedMessage, nameId: string) =>
  samlResponse({
    issuer: connection.entityId,
    destination: acsUrl(rp.server),
    audience: `${rp.server.url}/runtime/saml2`,
    inResponseTo: sent.id,
    nameId,
    nameIdFormat: EMAIL_FORMAT,
    signer,
  });

/** Asserts the posted AuthnRequest: the page and its form, and the request it carries. */
function expectPostedAuthnRequest(sent: PostedMessage) {
  expect(sent.page.status).toBe(200);
  expect(sent.page.headers.get('cache-control')).toBe('no-store');
  const csp = sent.page.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("form-action 'self' http://127.0.0.1:7;");
  const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
  expect(sent.page.html).toContain(`<script nonce="${nonce}">document.forms[0].submit();</script>`);
  expect(sent.page.html).toContain('Press Continue to go on to the identity provider.');
  expect(sent.action).toBe(ssoPost);
  expect(Object.keys(sent.fields)).toEqual(['SAMLRequest', 'RelayState']);
  // SAML 2.0 Bindings §3.5.4: base64 of the XML itself, not deflated.
  expect(sent.xml).toMatch(/^<\?xml version="1\.0"\?><samlp:AuthnRequest /);
  expect(sent.id).toMatch(/^_[0-9a-f]{40}$/);
  expect(sent.xml).toContain(`Destination="${ssoPost}"`);
  expect(sent.xml).toContain(`AssertionConsumerServiceURL="${acsUrl(rp.server)}"`);
  expect(sent.xml).toContain(`ProtocolBinding="${HTTP_POST}"`);
  expect(sent.xml).toMatch(new RegExp(`<saml:Issuer[^>]*>${rp.server.url}/runtime/saml2</saml:Issuer>`));
  // SAML 2.0 Bindings §3.5.3: RelayState MUST NOT exceed 80 bytes; the sign-in is kept under it, sealed.
  expect(sent.relayState).toMatch(/^[\w-]{24}$/);
}

describe('upstream SAML 2.0 sign-in at an identity provider whose single sign-on service takes HTTP-POST only', () => {
  it('answers with a page whose form posts the unsigned AuthnRequest and the RelayState to the service', async () => {
    const sent = await startSamlPostSignIn(new Agent(rp.server.url), authorize(idp.post));
    expectPostedAuthnRequest(sent);
    expect(sent.xml).not.toContain('Signature');
    expect(sent.xml).not.toContain('IsPassive');
    expect(sent.xml).not.toContain('ForceAuthn');
    const kept = rowsOf(await execSql(rp.server)`select sealed from saml_relay_states where id = ${sent.relayState}`);
    expect(kept).toEqual([{ sealed: expect.stringMatching(/^v1\./) }]);
  });

  it('signs the user in when the signed SAMLResponse is posted to the ACS with the RelayState', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await startSamlPostSignIn(agent, authorize(idp.post, { state: 'posted' }));
    const before = events(rp.server, 4111).length;
    const outcome = await postToAcsAfterPost(rp.server, agent, sent, answer(idp.post, sent, String(user.email)));
    expect(outcome.left?.searchParams.get('state')).toBe('posted');
    expect(await finishCodeFlow(rp.server, client, outcome.left!, 'posted')).toMatchObject({
      sub: user.id,
      amr: ['fed'],
    });
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
  });

  it('signs the posted AuthnRequest with an enveloped XML signature that verifies with the metadata certificate', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await startSamlPostSignIn(agent, authorize(idp.signed, { state: 'signed' }));
    expectPostedAuthnRequest(sent);
    expect(postSignatureVerifies(sent.xml, serviceCertificate)).toBe(true);
    expect(postSignatureVerifies(sent.xml, signer.pem)).toBe(false);
    expect(sent.xml).toContain(`<SignatureMethod Algorithm="${RSA_SHA256}"/>`);
    expect(sent.xml).toContain(`<DigestMethod Algorithm="${SHA256}"/>`);
    expect(sent.xml).toContain(`<Reference URI="#${sent.id}">`);
    // The signature follows the Issuer (SAML 2.0 Core §3.2.1) and covers the whole request.
    expect(sent.xml).toMatch(/<\/saml:Issuer><Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">/);
    const altered = sent.xml.replace(`Destination="${ssoPost}"`, 'Destination="http://127.0.0.1:7/elsewhere"');
    expect(postSignatureVerifies(altered, serviceCertificate)).toBe(false);

    const outcome = await postToAcsAfterPost(rp.server, agent, sent, answer(idp.signed, sent, String(user.email)));
    expect(await finishCodeFlow(rp.server, client, outcome.left!, 'signed')).toMatchObject({ sub: user.id });
  });

  it('asks for a fresh sign-in (prompt=login), a passive one (prompt=none) and acr_values as by HTTP-Redirect', async () => {
    const classes = ['urn:oasis:names:tc:SAML:2.0:ac:classes:X509', 'urn:oasis:names:tc:SAML:2.0:ac:classes:Kerberos'];
    const fresh = await startSamlPostSignIn(new Agent(rp.server.url), authorize(idp.signed, { prompt: 'login' }));
    expect(fresh.xml).toContain('ForceAuthn="true"');
    expect(postSignatureVerifies(fresh.xml, serviceCertificate)).toBe(true);
    const passive = await startSamlPostSignIn(new Agent(rp.server.url), authorize(idp.post, { prompt: 'none' }));
    expect(passive.xml).toContain('IsPassive="true"');
    const acr = await startSamlPostSignIn(
      new Agent(rp.server.url),
      authorize(idp.signed, { acr_values: classes.join(' ') }),
    );
    expect(acr.xml).toMatch(/<samlp:RequestedAuthnContext[^>]*Comparison="exact"/);
    expect([...acr.xml.matchAll(/<saml:AuthnContextClassRef[^>]*>([^<]+)</g)].map((m) => m[1])).toEqual(classes);
    expect(postSignatureVerifies(acr.xml, serviceCertificate)).toBe(true);
  });

  it('sends the AuthnRequest by HTTP-Redirect when the connection lists both bindings', async () => {
    const sent = await startSamlSignIn(new Agent(rp.server.url), authorize(idp.both));
    expect(`${sent.url.origin}${sent.url.pathname}`).toBe(ssoRedirect);
    expect(sent.xml).toContain(`Destination="${ssoRedirect}"`);
  });

  it('cannot use a connection with neither binding: event 4111 naming both, temporarily_unavailable', async () => {
    const before = events(rp.server, 4111).length;
    const outcome = await new Agent(rp.server.url).navigate(authorize(idp.neither, { state: 'none' }));
    expect(Object.fromEntries(outcome.left!.searchParams)).toMatchObject({
      error: 'temporarily_unavailable',
      error_description: `the identity provider ${idp.neither.name} cannot be used`,
      state: 'none',
    });
    expect(events(rp.server, 4111).slice(before)).toEqual([
      expect.objectContaining({
        eventId: 4111,
        error: 'server_error',
        description: 'the connection has no HTTP-Redirect or HTTP-POST single sign-on service',
        connection: idp.neither.name,
      }),
    ]);
  });

  it('publishes the single logout service by HTTP-Redirect, then by HTTP-POST at the same address, then by SOAP', async () => {
    const xml = (await new Agent(rp.server.url).navigate(`${rp.server.url}/runtime/saml2/metadata.idp`)).page!.html;
    const services = [...xml.matchAll(/<SingleLogoutService [^>]*\/>/g)].map((m) => m[0]);
    expect(services).toEqual([
      `<SingleLogoutService Binding="${HTTP_REDIRECT}" Location="${sloUrl(rp.server)}"/>`,
      `<SingleLogoutService Binding="${HTTP_POST}" Location="${sloUrl(rp.server)}"/>`,
      `<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:SOAP" Location="${rp.server.url}/runtime/saml2/slo-soap.idp"/>`,
    ]);
  });
});
