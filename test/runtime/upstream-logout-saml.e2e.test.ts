import { beforeAll, describe, expect, it } from 'vitest';
import {
  redirectSignatureVerifies,
  type SamlSigner,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import { Agent } from './agent.js';
import { createSaml20Connection, EMAIL_FORMAT, HTTP_REDIRECT, keyDescriptors, uploadedSigner } from './saml-idp.js';
import { type CreatedClient, createClient, events, execSql, runtimeServerPerFile, unique } from './support.js';
import {
  afterLogout,
  expectEnded,
  expectUnconfirmedSignOut,
  idTokenFor,
  type LogoutResponseInput,
  logoutResponseUrl,
  logoutUrl,
  redirectMessage,
  SIGNED_OUT,
  samlSignedIn,
  sessionRow,
  sloUrl,
  UNCONFIRMED,
} from './upstream-logout-support.js';

const rp = runtimeServerPerFile();
const idpEntityId = 'urn:idsvc-test:saml-logout-idp';
/** The identity provider's single logout service: on another origin than the client's, never reached. */
const idpSlo = 'http://127.0.0.1:7/idp/slo';
let signer: SamlSigner;
let samlName: string;
let connectionId: string;
let plainName: string;
let client: CreatedClient;

beforeAll(async () => {
  signer = await uploadedSigner(rp.server);
  samlName = unique('SamlSlo');
  plainName = unique('SamlNoSlo');
  const singleLogoutServices = [{ binding: HTTP_REDIRECT, location: idpSlo }];
  connectionId = await createSaml20Connection(rp.server, {
    name: samlName,
    entityId: idpEntityId,
    signer,
    configuration: { singleLogoutServices },
  });
  await createSaml20Connection(rp.server, { name: plainName, entityId: `${idpEntityId}-2`, signer });
  client = await createClient(rp.server, {
    configuration: { redirectUris: ['http://127.0.0.1:9/cb'], postLogoutRedirectUris: [afterLogout] },
    dependencyConnectionNames: ['UsernamePassword', samlName, plainName],
  });
});

/** Signs a new user in through the connection; returns the browser, its ID token here and the SessionIndex. */
async function signedIn(name = samlName, entityId = idpEntityId) {
  const { agent, left, user, sessionIndex, sessionId } = await samlSignedIn(rp.server, client, signer, {
    name,
    entityId,
  });
  return { user, agent, idToken: await idTokenFor(rp.server, client, left, 's'), sessionIndex, sessionId };
}

/** The LogoutRequest the browser was sent to the identity provider with, and its RelayState. */
function sentLogout(left: URL) {
  const xml = redirectMessage(left);
  return { left, xml, id: /\bID="([^"]+)"/.exec(xml)?.[1] ?? '', relayState: left.searchParams.get('RelayState')! };
}

/** Logs out with the ID token; returns the LogoutRequest the browser is sent to the identity provider with. */
const logoutAtIdp = async (agent: Agent, idToken: string, params: Record<string, string> = {}) =>
  sentLogout((await agent.navigate(logoutUrl(rp.server, { id_token_hint: idToken, ...params }))).left!);

const RESPONDER = 'urn:oasis:names:tc:SAML:2.0:status:Responder';
const answer = (sent: { id: string; relayState: string }, input: Partial<LogoutResponseInput> = {}) =>
  logoutResponseUrl({
    slo: sloUrl(rp.server),
    issuer: idpEntityId,
    inResponseTo: sent.id,
    relayState: sent.relayState,
    signer,
    ...input,
  });

describe('logout of a session signed in through a SAML 2.0 identity provider', () => {
  it('publishes the single logout service (HTTP-Redirect) in the service provider metadata', async () => {
    const page = (await new Agent(rp.server.url).navigate(`${rp.server.url}/runtime/saml2/metadata.idp`)).page!;
    expect(page.html).toContain(`<SingleLogoutService Binding="${HTTP_REDIRECT}" Location="${sloUrl(rp.server)}"/>`);
  });

  it('ends the session, sends a signed LogoutRequest for its NameID and SessionIndex, and finishes at the client', async () => {
    const { user, agent, idToken, sessionIndex, sessionId } = await signedIn();
    expect((await sessionRow(rp.server, sessionId)).upstream).toEqual({
      connectionId,
      protocol: 'saml',
      nameId: user.email,
      nameIdFormat: EMAIL_FORMAT,
      sessionIndex,
    });
    const sent = await logoutAtIdp(agent, idToken, { post_logout_redirect_uri: afterLogout, state: 'xyz' });
    expect(`${sent.left.origin}${sent.left.pathname}`).toBe(idpSlo);
    expect(sent.relayState).toMatch(/^[\w-]{24}$/);
    expect(sent.id).toMatch(/^_[0-9a-f]{40}$/);
    expect(sent.xml).toContain(`Destination="${idpSlo}"`);
    expect(sent.xml).toMatch(new RegExp(`<saml:Issuer[^>]*>${rp.server.url}/runtime/saml2</saml:Issuer>`));
    expect(sent.xml).toContain(`<saml:NameID Format="${EMAIL_FORMAT}">${user.email}</saml:NameID>`);
    expect(sent.xml).toMatch(new RegExp(`<saml2p:SessionIndex[^>]*>${sessionIndex}</saml2p:SessionIndex>`));
    const metadata = (await agent.navigate(`${rp.server.url}/runtime/saml2/metadata.idp`)).page!.html;
    expect(redirectSignatureVerifies(sent.left, keyDescriptors(metadata).signing[0])).toBe(true);
    await expectEnded(rp.server, agent, sessionId);

    const before = events(rp.server, 4111).length;
    const back = await agent.navigate(answer(sent));
    expect(back.left?.toString()).toBe(`${afterLogout}?state=xyz`);
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
  });

  it('asks for confirmation without a hint, its form allowed to lead to the identity provider', async () => {
    const { agent, sessionId } = await signedIn();
    const confirm = (await agent.navigate(logoutUrl(rp.server, {}))).page!;
    expect(confirm.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:7;");
    const left = (await agent.submit(confirm, {}, { name: 'logout', value: 'yes' })).left!;
    expect(`${left.origin}${left.pathname}`).toBe(idpSlo);
    await expectEnded(rp.server, agent, sessionId);
    const back = await agent.navigate(answer(sentLogout(left)));
    expect(back.page?.status).toBe(200);
    expect(back.page?.html).toContain(SIGNED_OUT);
    expect(back.page?.html).not.toContain(UNCONFIRMED);
  });

  const otherRequest = '_0123456789abcdef0123456789abcdef01234567';
  for (const [what, wrong, description] of [
    [
      'signed by another key',
      async () => ({ signer: await uploadedSigner(rp.server) }),
      'the LogoutResponse does not verify: Invalid query signature',
    ],
    [
      'answering another request',
      async () => ({ inResponseTo: otherRequest }),
      'the LogoutResponse does not answer the request ',
    ],
    ['unsigned', async () => ({ signer: undefined }), 'the LogoutResponse is not signed'],
    ['reporting a failure', async () => ({ status: RESPONDER }), `the LogoutResponse reports the status ${RESPONDER}`],
  ] as const) {
    it(`logs event 4111 for a LogoutResponse ${what} and says the sign-out there is unconfirmed`, async () => {
      const { agent, idToken, sessionId } = await signedIn();
      const sent = await logoutAtIdp(agent, idToken);
      const before = events(rp.server, 4111).length;
      const back = (await agent.navigate(answer(sent, await wrong()))).page!;
      const expected = { connection: samlName, description, requestId: sent.id };
      expectUnconfirmedSignOut(back, events(rp.server, 4111).slice(before), expected);
      await expectEnded(rp.server, agent, sessionId);
    });
  }

  it('answers 400 to an unknown or expired RelayState', async () => {
    const { agent, idToken } = await signedIn();
    const sent = await logoutAtIdp(agent, idToken);
    const unknown = (await agent.navigate(answer({ ...sent, relayState: 'AAAAAAAAAAAAAAAAAAAAAAAA' }))).page!;
    expect(unknown.status).toBe(400);
    expect(unknown.html).toContain('the sign-out has expired or was not started here');
    await execSql(
      rp.server,
    )`update saml_relay_states set expires_at = now() - interval '1 second' where id = ${sent.relayState}`;
    expect((await agent.navigate(answer(sent))).page?.status).toBe(400);
  });

  it('finishes here when the identity provider has no single logout service', async () => {
    const { agent, idToken, sessionId } = await signedIn(plainName, `${idpEntityId}-2`);
    const params = { id_token_hint: idToken, post_logout_redirect_uri: afterLogout, state: 'local' };
    const outcome = await agent.navigate(logoutUrl(rp.server, params));
    expect(outcome.left?.toString()).toBe(`${afterLogout}?state=local`);
    await expectEnded(rp.server, agent, sessionId);
  });
});
