import { beforeAll, describe, expect, it } from 'vitest';
import {
  makeWsFedSigner,
  type WsFedTokenInput,
  wsfedAssertion,
  wsfedWrap,
} from '../../packages/server/src/test-support/wsfed-identity-provider.js';
import { Agent, alertOf, type Outcome } from './agent.js';
import { createUser, events, expectInvalidUpstreamAnswer, unique } from './support.js';
import { EMAIL_FORMAT, stsEntityId, wsfedRelyingParty } from './wsfed-sts.js';

const sts = wsfedRelyingParty();
const { rp, the } = sts;
let email: string;
beforeAll(async () => {
  email = String((await createUser(rp.server)).email);
});

interface Refusal {
  outcome: Outcome;
  logged: Record<string, unknown>[];
  agent: Agent;
}

/** Posts the wresult (and wa) to a fresh sign-in; returns where the browser ends, the 4111 events and the browser. */
async function refused(wresult: () => string, wa?: string): Promise<Refusal> {
  const before = events(rp.server, 4111).length;
  const agent = new Agent(rp.server.url);
  const outcome = await sts.post(agent, await sts.startSignIn(agent, { state: 'no' }), wresult(), wa);
  return { outcome, logged: events(rp.server, 4111).slice(before), agent };
}

/** access_denied to the client, one 4111 record with the description, and no session in the browser. */
async function deniedWith4111(result: Refusal, description: string | RegExp) {
  const refusal = { left: result.outcome.left, logged: result.logged, connection: the.name };
  expectInvalidUpstreamAnswer(rp.server, refusal, description);
  expect(result.agent.cookies.has('idsvc_session')).toBe(false);
  expect(await sts.hasSession(result.agent)).toBe(false);
}

/** A signed SAML 2.0 assertion for this service, and the same without its signature. */
const assertion = (input: Partial<WsFedTokenInput> & { nameId: string }) =>
  wsfedAssertion({
    format: 'saml2',
    issuer: stsEntityId,
    audience: sts.realm(),
    nameIdFormat: EMAIL_FORMAT,
    signer: the.signer,
    ...input,
  });
const unsigned = (xml: string) => xml.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');

describe('upstream WS-Federation sign-in: tokens that are refused', () => {
  it('a token signed by another key (its certificate in KeyInfo)', async () => {
    const other = await makeWsFedSigner();
    await deniedWith4111(
      await refused(() => sts.token({ nameId: email, signer: other })),
      /^the assertion's signature does not verify: invalid signature: the signature value .+ is incorrect$/,
    );
  });

  it('signature wrapping: a second, unsigned assertion for someone else beside the signed one', async () => {
    const tokens = `${unsigned(assertion({ nameId: 'eve@example.test' }))}${assertion({ nameId: email })}`;
    await deniedWith4111(
      await refused(() => wsfedWrap(tokens, { realm: sts.realm() })),
      'wresult holds 2 assertions, not one',
    );
  });

  it('signature wrapping: the signed assertion moved aside, an unsigned one in its place', async () => {
    const forged = unsigned(assertion({ nameId: 'eve@example.test' }));
    const extra = `<x:Wrapper xmlns:x="urn:x">${assertion({ nameId: email })}</x:Wrapper>`;
    await deniedWith4111(
      await refused(() => wsfedWrap(forged, { realm: sts.realm(), extra })),
      'wresult holds 2 assertions, not one',
    );
  });

  it('a token for another audience', async () => {
    await deniedWith4111(
      await refused(() => sts.token({ nameId: email, audience: 'https://rp.elsewhere.example' })),
      'the assertion is for https://rp.elsewhere.example, not for this service',
    );
  });

  it('a token issued by another service', async () => {
    await deniedWith4111(
      await refused(() => sts.token({ nameId: email, issuer: 'urn:another-sts' })),
      `the assertion was issued by urn:another-sts, not by ${stsEntityId}`,
    );
  });

  it('a token that expired (beyond the allowed clock skew)', async () => {
    const past = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    await deniedWith4111(
      await refused(() => sts.token({ nameId: email, notBefore: past(20), notOnOrAfter: past(10) })),
      'the assertion has expired (NotOnOrAfter)',
    );
  });

  it('a document type declaration', async () => {
    await deniedWith4111(
      await refused(() => `<!DOCTYPE x [<!ENTITY e "${email}">]>${sts.token({ nameId: email })}`),
      'wresult is refused: the XML has a document type declaration',
    );
  });

  it('wa other than wsignin1.0', async () => {
    await deniedWith4111(
      await refused(() => sts.token({ nameId: email }), 'wsignout1.0'),
      'the post is not wa=wsignin1.0',
    );
  });

  it('the same wresult posted again, by another browser: the first signs in, the second is refused', async () => {
    const user = await createUser(rp.server);
    const wresult = sts.token({ nameId: String(user.email), assertionId: '_replayed-1' });
    const first = new Agent(rp.server.url);
    const signedIn = await sts.post(first, await sts.startSignIn(first, { state: 'no' }), wresult);
    expect(await sts.idTokenClaims(signedIn.left!, 'no')).toMatchObject({ sub: user.id, amr: ['fed'] });
    await deniedWith4111(await refused(() => wresult), 'the assertion _replayed-1 was accepted before');
  });

  it('an e-mail address no account has, or only a UPN: access_denied, logged as 4110 (the service did nothing wrong)', async () => {
    const upn = { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn': email };
    const opaque = { nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', attributes: upn };
    const unknown = sts.token({ nameId: `${unique('nobody')}@example.test` });
    for (const wresult of [unknown, sts.token({ nameId: 'opaque-1', ...opaque })]) {
      const before4110 = events(rp.server, 4110).length;
      const result = await refused(() => wresult);
      expect(Object.fromEntries(result.outcome.left!.searchParams)).toEqual({
        error: 'access_denied',
        error_description: "no account here matches the identity provider's user",
        state: 'no',
        iss: rp.server.issuer,
      });
      expect(result.logged).toEqual([]);
      expect(events(rp.server, 4110).slice(before4110)).toEqual(
        expect.arrayContaining([expect.objectContaining({ error: 'access_denied', connection: the.name })]),
      );
      expect(await sts.hasSession(result.agent)).toBe(false);
    }
  });

  it('a wctx this service did not seal: a 400 page, nothing sent to the client', async () => {
    const before = events(rp.server, 4111).length;
    const agent = new Agent(rp.server.url);
    const sent = await sts.startSignIn(agent);
    sent.searchParams.set('wctx', 'v1.forged');
    const page = (await sts.post(agent, sent, sts.token({ nameId: email }))).page!;
    expect(page.status).toBe(400);
    expect(alertOf(page) ?? page.html).toContain('the sign-in has expired or was not started here');
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
    expect(await sts.hasSession(agent)).toBe(false);
  });

  it('a verified result carried to another browser (login CSRF): a 400 page', async () => {
    const sent = await sts.startSignIn(new Agent(rp.server.url));
    const response = await fetch(sts.replyUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        wa: 'wsignin1.0',
        wresult: sts.token({ nameId: email }),
        wctx: sent.searchParams.get('wctx') ?? '',
      }),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    const continuation = response.headers.get('location') ?? '';
    expect(continuation.startsWith('/runtime/wsfed/reply.idp?result=')).toBe(true);
    const elsewhere = new Agent(rp.server.url);
    const page = (await elsewhere.navigate(continuation)).page!;
    expect(page.status).toBe(400);
    expect(alertOf(page) ?? page.html).toContain('the sign-in has expired or was not started here');
    expect(await sts.hasSession(elsewhere)).toBe(false);
  });
});
