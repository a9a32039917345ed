import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  makeSamlSigner,
  type SamlResponseInput,
  type SamlSigner,
  samlResponse,
} from '../../packages/server/src/test-support/saml-identity-provider.js';
import { Agent, alertOf, type Outcome } from './agent.js';
import {
  acsUrl as acsUrlOf,
  authorizeUrl,
  createSaml20Connection,
  EMAIL_FORMAT,
  finishCodeFlow,
  postToAcs,
  redirectUri,
  type SentRequest,
  ssoUrl,
  startSamlSignIn,
  uploadedSigner,
} from './saml-idp.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  events,
  execSql,
  expectInvalidUpstreamAnswer,
  rowsOf,
  runtimeServerPerFile,
  unique,
} from './support.js';

const rp = runtimeServerPerFile();
const idpEntityId = 'urn:idsvc-test:saml-idp';
/** A second identity provider, of a connection of its own (with the same signing certificate). */
const otherIdpEntityId = 'urn:idsvc-test:saml-idp-2';
let signer: SamlSigner;
let samlName: string;
let otherSamlName: string;
let connectionId: string;
let client: CreatedClient;

beforeAll(async () => {
  signer = await uploadedSigner(rp.server);
  samlName = unique('SamlIdp');
  otherSamlName = unique('SamlIdp');
  connectionId = await createSaml20Connection(rp.server, { name: samlName, entityId: idpEntityId, signer });
  await createSaml20Connection(rp.server, { name: otherSamlName, entityId: otherIdpEntityId, signer });
  client = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri] },
    dependencyConnectionNames: ['UsernamePassword', samlName, otherSamlName],
  });
});

const authorize = (params: Record<string, string>) => authorizeUrl(rp.server, client, params);
const acsUrl = () => acsUrlOf(rp.server);

const startSignIn = (agent: Agent, params: Record<string, string> = {}): Promise<SentRequest> =>
  startSamlSignIn(agent, authorize({ whr: `name:${samlName}`, state: 's1', ...params }));

/** The identity provider's answer to a request: a response for the person, signed with `signer` unless told. */
function answer(sent: SentRequest, input: Partial<SamlResponseInput> & { nameId: string }): string {
  return samlResponse({
    issuer: idpEntityId,
    destination: acsUrl(),
    audience: `${rp.server.url}/runtime/saml2`,
    inResponseTo: sent.id,
    nameIdFormat: EMAIL_FORMAT,
    signer,
    ...input,
  });
}

const post = (agent: Agent, sent: SentRequest, SAMLResponse: string): Promise<Outcome> =>
  postToAcs(rp.server, agent, sent, SAMLResponse);

/** Finishes the code flow at the client's address and returns the ID token's claims. */
const idTokenClaims = (left: URL, state: string) => finishCodeFlow(rp.server, client, left, state);

describe('upstream SAML 2.0 sign-in (a Saml20 connection chosen by whr)', () => {
  it('offers the identity provider on the login page', async () => {
    const page = (await new Agent(rp.server.url).navigate(authorize({}))).page!;
    expect(page.html).toContain(`>${samlName}</a>`);
    expect(page.html).toContain(`whr=uuid%3A${connectionId}`);
  });

  it('sends a deflated AuthnRequest over HTTP-Redirect with its issuer, ACS and a RelayState of at most 80 bytes', async () => {
    const sent = await startSignIn(new Agent(rp.server.url));
    expect(`${sent.url.origin}${sent.url.pathname}`).toBe(ssoUrl);
    expect(sent.id).toMatch(/^_[0-9a-f]{40}$/);
    expect(sent.xml).toContain(`AssertionConsumerServiceURL="${acsUrl()}"`);
    expect(sent.xml).toContain(`Destination="${ssoUrl}"`);
    expect(sent.xml).toContain('ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"');
    expect(sent.xml).toMatch(new RegExp(`<saml:Issuer[^>]*>${rp.server.url}/runtime/saml2</saml:Issuer>`));
    expect(sent.xml).not.toContain('IsPassive');
    // SAML 2.0 Bindings §3.4.3: RelayState MUST NOT exceed 80 bytes; the sign-in is kept under it, sealed.
    expect(sent.relayState).toMatch(/^[\w-]{24}$/);
    const kept = rowsOf(await execSql(rp.server)`select sealed from saml_relay_states where id = ${sent.relayState}`);
    expect(kept).toEqual([{ sealed: expect.stringMatching(/^v1\./) }]);
  });

  it('signs the user matched by the e-mail NameID in and finishes the code flow (whr=name: and whr=urn:)', async () => {
    const user = await createUser(rp.server);
    for (const whr of [`name:${samlName}`, idpEntityId]) {
      const agent = new Agent(rp.server.url);
      const sent = await startSignIn(agent, { whr, state: 'ok' });
      const outcome = await post(agent, sent, answer(sent, { nameId: String(user.email) }));
      expect(outcome.left?.searchParams.get('state')).toBe('ok');
      expect(await idTokenClaims(outcome.left!, 'ok')).toMatchObject({ sub: user.id, amr: ['fed'] });
    }
  });

  it('takes the e-mail address from an attribute when the NameID is not one, and signs the whole response too', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await startSignIn(agent, { state: 'attr' });
    const response = answer(sent, {
      nameId: 'opaque-id-123',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': String(user.email) },
      signResponse: true,
    });
    const outcome = await post(agent, sent, response);
    expect(await idTokenClaims(outcome.left!, 'attr')).toMatchObject({ sub: user.id });
  });

  it('accepts an assertion that expired within the allowed clock skew (five minutes)', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await startSignIn(agent, { state: 'skew' });
    const past = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const outcome = await post(
      agent,
      sent,
      answer(sent, { nameId: String(user.email), notBefore: past(3), notOnOrAfter: past(1) }),
    );
    expect(await idTokenClaims(outcome.left!, 'skew')).toMatchObject({ sub: user.id });
  });

  it('accepts an assertion ID already used with another identity provider (assertions are used once per provider)', async () => {
    const user = await createUser(rp.server);
    const assertionId = `_${randomBytes(16).toString('hex')}`;
    for (const [name, issuer] of [
      [samlName, idpEntityId],
      [otherSamlName, otherIdpEntityId],
    ]) {
      const agent = new Agent(rp.server.url);
      const sent = await startSignIn(agent, { whr: `name:${name}`, state: 'same-id' });
      const outcome = await post(agent, sent, answer(sent, { nameId: String(user.email), issuer, assertionId }));
      expect(await idTokenClaims(outcome.left!, 'same-id')).toMatchObject({ sub: user.id, amr: ['fed'] });
    }
  });

  it('answers SP metadata with the entity id and the ACS', async () => {
    const response = await fetch(`${rp.server.url}/runtime/saml2/metadata.idp?connectionId=${connectionId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/samlmetadata+xml; charset=utf-8');
    const xml = await response.text();
    expect(xml).toContain(`entityID="${rp.server.url}/runtime/saml2"`);
    expect(xml).toContain(`Location="${acsUrl()}"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
    const unknown = await fetch(`${rp.server.url}/runtime/saml2/metadata.idp?connectionId=${client.id}`);
    expect(unknown.status).toBe(404);
  });
});

describe('upstream SAML 2.0 sign-in: responses that are refused', () => {
  /** Posts the response to a fresh sign-in; returns where the browser ends and the 4111 events it logged. */
  async function refused(input: (sent: SentRequest) => string) {
    const before = events(rp.server, 4111).length;
    const agent = new Agent(rp.server.url);
    const sent = await startSignIn(agent, { state: 'no' });
    const outcome = await post(agent, sent, input(sent));
    return { outcome, logged: events(rp.server, 4111).slice(before) };
  }
  let email: string;
  beforeAll(async () => {
    email = String((await createUser(rp.server)).email);
  });
  const deniedWith4111 = (result: Awaited<ReturnType<typeof refused>>, description: RegExp) => {
    expectInvalidUpstreamAnswer(
      rp.server,
      { left: result.outcome.left, logged: result.logged, connection: samlName },
      description,
    );
  };

  it('a response signed with another key', async () => {
    const other = await makeSamlSigner();
    deniedWith4111(
      await refused((sent) => answer(sent, { nameId: email, signer: other })),
      /: Error: Invalid signature$/,
    );
  });

  it('an assertion for another audience', async () => {
    const result = await refused((sent) => answer(sent, { nameId: email, audience: 'https://sp.elsewhere.example' }));
    deniedWith4111(
      result,
      /audience mismatch\. Expected: http:\/\/127\.0\.0\.1:\d+\/runtime\/saml2 Received: https:\/\/sp\.elsewhere\.example$/,
    );
  });

  it('an assertion that expired (beyond the allowed clock skew)', async () => {
    const past = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const result = await refused((sent) =>
      answer(sent, { nameId: email, notBefore: past(20), notOnOrAfter: past(10) }),
    );
    deniedWith4111(result, /No valid subject confirmation found/);
  });

  it('the same response posted again: the first post signs in, the second is refused (the assertion was used)', async () => {
    const before = events(rp.server, 4111).length;
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await startSignIn(agent, { state: 'no' });
    const response = answer(sent, { nameId: String(user.email) });
    const assertionId = /<saml:Assertion [^>]*\bID="([^"]+)"/.exec(Buffer.from(response, 'base64').toString())?.[1];
    expect(assertionId).toMatch(/^_[0-9a-f]{32}$/);

    const first = await post(agent, sent, response);
    expect(await idTokenClaims(first.left!, 'no')).toMatchObject({ sub: user.id, amr: ['fed'] });
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
    const again = await post(agent, sent, response);

    deniedWith4111(
      { outcome: again, logged: events(rp.server, 4111).slice(before) },
      new RegExp(`^the assertion ${assertionId} was accepted before$`),
    );
  });

  it('an assertion ID longer than 256 characters (used IDs are kept)', async () => {
    deniedWith4111(
      await refused((sent) => answer(sent, { nameId: email, assertionId: `_${'a'.repeat(256)}` })),
      /^the assertion ID is longer than 256 characters$/,
    );
  });

  it('a response to another AuthnRequest', async () => {
    deniedWith4111(
      await refused((sent) => answer(sent, { nameId: email, inResponseTo: '_other' })),
      /InResponseTo is not valid$/,
    );
  });

  it('a response addressed to another service', async () => {
    const result = await refused((sent) =>
      answer(sent, { nameId: email, destination: 'https://sp.elsewhere.example' }),
    );
    deniedWith4111(result, /^the response is addressed to https:\/\/sp\.elsewhere\.example, not to this service$/);
  });

  it('an assertion issued by another identity provider', async () => {
    deniedWith4111(
      await refused((sent) => answer(sent, { nameId: email, issuer: 'urn:another-idp' })),
      /^the assertion was issued by urn:another-idp, not by urn:idsvc-test:saml-idp$/,
    );
  });

  it('an error status: event 4111 with the status, access_denied to the client', async () => {
    const status = {
      code: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
      subCode: 'urn:oasis:names:tc:SAML:2.0:status:AuthnFailed',
    };
    const result = await refused((sent) => answer(sent, { nameId: email, status }));
    expect(result.outcome.left?.searchParams.get('error')).toBe('access_denied');
    expect(result.logged).toEqual([
      expect.objectContaining({ eventId: 4111, error: 'AuthnFailed', connection: samlName }),
    ]);
  });

  it('acr_values become a RequestedAuthnContext of those classes (exact); without them none is asked for', async () => {
    const classes = ['urn:oasis:names:tc:SAML:2.0:ac:classes:X509', 'urn:oasis:names:tc:SAML:2.0:ac:classes:Kerberos'];
    const sent = await startSignIn(new Agent(rp.server.url), { acr_values: classes.join(' ') });
    expect(sent.xml).toMatch(/<samlp:RequestedAuthnContext[^>]*Comparison="exact"/);
    const asked = [...sent.xml.matchAll(/<saml:AuthnContextClassRef[^>]*>([^<]+)</g)].map((m) => m[1]);
    expect(asked).toEqual(classes);
    const plain = await startSignIn(new Agent(rp.server.url));
    expect(plain.xml).not.toContain('RequestedAuthnContext');
  });

  it('prompt=none asks for a passive sign-in, and NoPassive becomes login_required', async () => {
    const before = events(rp.server, 4111).length;
    const agent = new Agent(rp.server.url);
    const sent = await startSignIn(agent, { prompt: 'none', state: 'np' });
    expect(sent.xml).toContain('IsPassive="true"');
    const status = {
      code: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
      subCode: 'urn:oasis:names:tc:SAML:2.0:status:NoPassive',
    };
    const outcome = await post(agent, sent, answer(sent, { nameId: email, status }));
    expect(Object.fromEntries(outcome.left!.searchParams)).toMatchObject({ error: 'login_required', state: 'np' });
    expect(events(rp.server, 4111).slice(before)).toEqual([expect.objectContaining({ error: 'NoPassive' })]);
  });

  it('an e-mail address no account has: access_denied, logged as 4110 (the provider did nothing wrong)', async () => {
    const before4110 = events(rp.server, 4110).length;
    const result = await refused((sent) => answer(sent, { nameId: `${unique('nobody')}@example.test` }));
    expect(Object.fromEntries(result.outcome.left!.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'no',
    });
    expect(result.logged).toEqual([]);
    expect(events(rp.server, 4110).slice(before4110)).toEqual(
      expect.arrayContaining([expect.objectContaining({ error: 'access_denied', connection: samlName })]),
    );
  });

  it('a RelayState this service did not give, or a sign-in expired: a 400 page, nothing sent to the client', async () => {
    const agent = new Agent(rp.server.url);
    const sent = await startSignIn(agent);
    for (const relayState of ['forged', 'x'.repeat(81)]) {
      const outcome = await post(agent, { ...sent, relayState }, answer(sent, { nameId: email }));
      expect(outcome.page?.status).toBe(400);
      expect(outcome.page?.html).toContain('the sign-in has expired or was not started here');
    }
    const late = await startSignIn(agent);
    await execSql(rp.server)`update saml_relay_states set expires_at = now() - interval '1 second'
      where id = ${late.relayState}`;
    const outcome = await post(agent, late, answer(late, { nameId: email }));
    expect(outcome.page?.status).toBe(400);
  });

  it('a verified result carried to another browser (login CSRF): a 400 page', async () => {
    const agent = new Agent(rp.server.url);
    const sent = await startSignIn(agent);
    const response = await fetch(acsUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: answer(sent, { nameId: email }), RelayState: sent.relayState }),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    const continuation = response.headers.get('location') ?? '';
    expect(continuation.startsWith('/runtime/saml2/acs.idp?result=')).toBe(true);
    const elsewhere = (await new Agent(rp.server.url).navigate(continuation)).page!;
    expect(elsewhere.status).toBe(400);
    expect(alertOf(elsewhere) ?? elsewhere.html).toContain('the sign-in has expired or was not started here');
  });
});
