import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRelayState, keepRelayState } from '../../queries/saml-relay-states.js';
import { createTestContext, TEST_BASE_URL, type TestContext } from '../../test-support/context.js';
import { keepPostForm, keptPostForm, sendSamlPostForm } from './saml-post-form.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const form = { action: 'https://idp.example:8443/slo?x=1', fields: { SAMLRequest: 'PHg+"&<', RelayState: 'r1' } };

describe('keepPostForm and keptPostForm', () => {
  it("keeps the form sealed under a short id and gives the address of this service's page that sends it", async () => {
    const address = new URL(await keepPostForm(ctx, form));
    expect(`${address.origin}${address.pathname}`).toBe(`${TEST_BASE_URL}/runtime/saml2/slo.idp`);
    const id = address.searchParams.get('send') ?? '';
    expect(id).toMatch(/^[\w-]{24}$/);
    expect(await findRelayState(ctx.db, id)).toMatch(/^v1\./);
    expect(await keptPostForm(ctx, id)).toEqual(form);
  });

  it('knows no form under an unknown id, an overlong one, a sealed value of another kind or an expired one', async () => {
    expect(await keptPostForm(ctx, 'AAAAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
    expect(await keptPostForm(ctx, 'x'.repeat(81))).toBeUndefined();
    const later = new Date(Date.now() + 60_000);
    const keep = (id: string, value: object) => keepRelayState(ctx.db, id, ctx.box.seal(JSON.stringify(value)), later);
    await keep('other-kind', { kind: 'saml-logout', ...form, expiresAt: later.getTime() });
    expect(await keptPostForm(ctx, 'other-kind')).toBeUndefined();
    await keep('expired', { kind: 'saml-post-form', ...form, expiresAt: Date.now() - 1 });
    expect(await keptPostForm(ctx, 'expired')).toBeUndefined();
  });
});

describe('sendSamlPostForm', () => {
  it("answers with a page whose form posts the fields, its CSP allowing the endpoint's origin and its one script", async () => {
    const app = new Hono().get('/send', (c) => sendSamlPostForm(ctx, c, form, 'nl'));
    const response = await app.request('/send');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("form-action 'self' https://idp.example:8443;");
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    const html = await response.text();
    expect(html).toContain('<form method="post" action="https://idp.example:8443/slo?x=1">');
    expect(html).toContain('<input type="hidden" name="SAMLRequest" value="PHg+&quot;&amp;&lt;"/>');
    expect(html).toContain('<input type="hidden" name="RelayState" value="r1"/>');
    expect(html).toContain('Druk op Verder om naar de identiteitsprovider te gaan.');
    expect(html).toContain(`<script nonce="${nonce}">document.forms[0].submit();</script>`);
  });
});
