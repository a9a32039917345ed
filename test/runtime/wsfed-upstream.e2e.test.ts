import { describe, expect, it } from 'vitest';
import { Agent } from './agent.js';
import { createUser, events } from './support.js';
import { redirectUri, stsEntityId, stsUrl, wsfedRelyingParty } from './wsfed-sts.js';

const sts = wsfedRelyingParty();
const { rp, the } = sts;
const EMAIL_CLAIM = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';

describe('upstream WS-Federation sign-in (a WsFederation connection chosen by whr)', () => {
  it('offers the security token service on the login page', async () => {
    const page = (await new Agent(rp.server.url).navigate(sts.authorize({}))).page!;
    expect(page.html).toContain(`>${the.name}</a>`);
    expect(page.html).toContain(`whr=uuid%3A${the.connectionId}`);
  });

  it('sends the browser to the sign-on address with wa, wtrealm, wreply, wct and a sealed wctx', async () => {
    const before = Date.now();
    const sent = await sts.startSignIn(new Agent(rp.server.url));
    expect(`${sent.origin}${sent.pathname}`).toBe(stsUrl);
    const { wct, wctx, ...rest } = Object.fromEntries(sent.searchParams);
    expect(rest).toEqual({ wa: 'wsignin1.0', wtrealm: sts.realm(), wreply: sts.replyUrl() });
    expect(wct).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(wct)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(wct)).toBeLessThanOrEqual(Date.now());
    expect(wctx).toMatch(/^v1\./);
  });

  it('signs the user matched by the e-mail NameID of a SAML 2.0 token in (whr=uuid:, urn: and name:)', async () => {
    const user = await createUser(rp.server);
    for (const whr of [`uuid:${the.connectionId}`, stsEntityId, `name:${the.name}`]) {
      const agent = new Agent(rp.server.url);
      const sent = await sts.startSignIn(agent, { whr, state: 'ok' });
      expect(`${sent.origin}${sent.pathname}`).toBe(stsUrl);
      const outcome = await sts.post(agent, sent, sts.token({ nameId: String(user.email) }));
      expect(`${outcome.left?.origin}${outcome.left?.pathname}`).toBe(redirectUri);
      expect(outcome.left?.searchParams.get('state')).toBe('ok');
      expect(await sts.idTokenClaims(outcome.left!, 'ok')).toMatchObject({ sub: user.id, amr: ['fed'] });
      expect(await sts.hasSession(agent)).toBe(true);
    }
  });

  it('signs in with a SAML 1.1 token in a WS-Trust 1.3 collection, the e-mail from its emailaddress claim (AD FS)', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const sent = await sts.startSignIn(agent, { state: 'adfs' });
    const wresult = sts.token(
      {
        format: 'saml11',
        nameId: 'EXAMPLE\\someone',
        nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
        attributes: { [EMAIL_CLAIM]: String(user.email) },
      },
      true,
    );
    const outcome = await sts.post(agent, sent, wresult);
    expect(await sts.idTokenClaims(outcome.left!, 'adfs')).toMatchObject({ sub: user.id, amr: ['fed'] });
  });

  it('prompt=login asks the service for a fresh sign-in (wfresh=0), even with a session here', async () => {
    const user = await createUser(rp.server);
    const agent = new Agent(rp.server.url);
    const first = await sts.post(agent, await sts.startSignIn(agent), sts.token({ nameId: String(user.email) }));
    expect(first.left?.searchParams.has('code')).toBe(true);
    const again = await sts.startSignIn(agent, { prompt: 'login' });
    expect(`${again.origin}${again.pathname}`).toBe(stsUrl);
    expect(again.searchParams.get('wfresh')).toBe('0');
    expect(again.searchParams.get('wa')).toBe('wsignin1.0');
  });

  it('acr_values ask the service for that authentication method (wauth, the first value)', async () => {
    const method = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';
    const sent = await sts.startSignIn(new Agent(rp.server.url), { acr_values: `${method} urn:example:other` });
    expect(sent.searchParams.get('wauth')).toBe(method);
    expect((await sts.startSignIn(new Agent(rp.server.url))).searchParams.has('wauth')).toBe(false);
  });

  it('prompt=none answers login_required at once: WS-Federation cannot ask for a passive sign-in', async () => {
    const before = events(rp.server, 4111).length;
    const left = await sts.startSignIn(new Agent(rp.server.url), { prompt: 'none', state: 'np' });
    expect(`${left.origin}${left.pathname}`).toBe(redirectUri);
    expect(Object.fromEntries(left.searchParams)).toEqual({
      error: 'login_required',
      error_description: 'the user must sign in',
      state: 'np',
      iss: rp.server.issuer,
    });
    expect(events(rp.server, 4111).slice(before)).toEqual([]);
  });
});
