import type { Server } from 'node:http';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiBase } from '../helpers/api.js';
import { Agent } from './agent.js';
import { startUpstream, upstreamSecret } from './oidc-upstream.js';
import {
  authorizeUrl,
  type CreatedClient,
  createClient,
  createUser,
  events,
  rpConfig,
  runtimeServerPerFile,
  unique,
} from './support.js';

const rp = runtimeServerPerFile();
const redirectUri = 'http://127.0.0.1:9/cb';
let upstream: { url: string; server: Server };
let upstreamName: string;
let client: CreatedClient;

beforeAll(async () => {
  upstream = await startUpstream(`${rp.server.url}/runtime/oauth2/callback.idp`);
  upstreamName = unique('Upstream');
  const created = await rp.server.admin.post(`${apiBase}/connections`, {
    body: {
      name: upstreamName,
      connectionType: 'Authentication',
      pluginType: 'GenericOidcProvider',
      configuration: { issuer: upstream.url, clientId: 'idsvc-upstream-client', clientSecret: upstreamSecret },
    },
  });
  expect(created.status).toBe(200);
  client = await createClient(rp.server, {
    configuration: { redirectUris: [redirectUri] },
    dependencyConnectionNames: ['UsernamePassword', upstreamName],
  });
});
afterAll(() => upstream?.server.close());

const authorize = (params: Record<string, string>) => authorizeUrl(rp.server, client, params);

describe('sign-in at an upstream provider (GenericOidcProvider, chosen by whr)', () => {
  it('offers the provider on the login page', async () => {
    const page = (await new Agent(rp.server.url).navigate(authorize({}))).page!;
    expect(page.html).toContain(`>${upstreamName}</a>`);
    expect(page.html).toContain('whr=uuid%3A');
  });

  it('signs the matching local user in through the provider (whr=name: and whr=urn:)', async () => {
    const user = await createUser(rp.server);
    for (const whr of [`name:${upstreamName}`, 'urn:idsvc-upstream-client']) {
      const agent = new Agent(rp.server.url, [upstream.url]);
      let outcome = await agent.navigate(authorize({ whr, state: 'u1' }));
      expect(outcome.page?.url.startsWith(upstream.url)).toBe(true);
      outcome = await agent.submit(outcome.page!, { login: String(user.email), password: 'anything' });
      if (outcome.page) outcome = await agent.submit(outcome.page, {});
      expect(outcome.left?.searchParams.get('state')).toBe('u1');
      const config = await rpConfig(rp.server, client);
      const tokens = await oidc.authorizationCodeGrant(config, outcome.left!, { expectedState: 'u1' });
      expect(tokens.claims()).toMatchObject({ sub: user.id, amr: ['fed'] });
    }
  });

  it('passes prompt, login_hint, ui_locales and acr_values on to the provider', async () => {
    const response = await fetch(
      authorize({
        whr: `name:${upstreamName}`,
        prompt: 'login',
        login_hint: 'someone@example.com',
        ui_locales: 'nl',
        acr_values: 'urn:example:mfa urn:example:pwd',
      }),
      { redirect: 'manual' },
    );
    expect(response.status).toBe(302);
    const sent = new URL(response.headers.get('location') ?? '');
    expect(sent.origin).toBe(new URL(upstream.url).origin);
    expect(sent.searchParams.get('prompt')).toBe('login');
    expect(sent.searchParams.get('login_hint')).toBe('someone@example.com');
    expect(sent.searchParams.get('ui_locales')).toBe('nl');
    expect(sent.searchParams.get('acr_values')).toBe('urn:example:mfa urn:example:pwd');
  });

  it("logs event 4111 for the provider's error and passes the error to the client", async () => {
    const before = events(rp.server, 4111).length;
    const agent = new Agent(rp.server.url, [upstream.url]);
    const outcome = await agent.navigate(authorize({ whr: `name:${upstreamName}`, prompt: 'none', state: 'u2' }));
    expect(Object.fromEntries(outcome.left!.searchParams)).toMatchObject({ error: 'login_required', state: 'u2' });
    const logged = events(rp.server, 4111).slice(before);
    expect(logged).toEqual([
      expect.objectContaining({ eventId: 4111, error: 'login_required', connection: upstreamName }),
    ]);
  });
});
