import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, alertOf } from './agent.js';
import {
  type CreatedClient,
  createClient,
  createUser,
  rpConfig,
  runtimeServerPerFile,
  testPassword,
} from './support.js';

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
const rp = runtimeServerPerFile();
let device: CreatedClient;
let user: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  device = await createClient(rp.server, {
    configuration: { publicClient: true, allowedGrantTypes: [DEVICE_CODE, 'refresh_token'], redirectUris: [] },
  });
  user = await createUser(rp.server);
});

/** The person's side: open verification_uri_complete, send the code, sign in, answer the confirmation. */
async function approve(url: string, answer: 'allow' | 'deny') {
  const agent = new Agent(rp.server.url);
  let outcome = await agent.navigate(url);
  expect(outcome.page?.html).toContain('name="user_code"');
  outcome = await agent.submit(outcome.page!, {});
  outcome = await agent.submit(outcome.page!, { username: user.userName, password: testPassword });
  expect(outcome.page?.html).toContain('name="consent" value="allow"');
  outcome = await agent.submit(outcome.page!, {}, { name: 'consent', value: answer });
  return outcome.page!;
}

describe('device authorization grant (RFC 8628)', () => {
  it('lets a device sign in while a person approves on the device page (openid-client polls)', async () => {
    const config = await rpConfig(rp.server, device, 'none');
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid offline_access' });
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started.verification_uri).toBe(`${rp.server.url}/runtime/oauth2/device.idp`);
    expect(started.verification_uri_complete).toBe(
      `${rp.server.url}/runtime/oauth2/device.idp?user_code=${encodeURIComponent(started.user_code)}`,
    );
    expect({ expires_in: started.expires_in, interval: started.interval }).toEqual({ expires_in: 600, interval: 5 });
    const polling = oidc.pollDeviceAuthorizationGrant(config, started);
    const done = await approve(started.verification_uri_complete!, 'allow');
    expect(done.html).toContain('The device is connected.');
    const tokens = await polling;
    expect(tokens.claims()?.sub).toBe(user.id);
    expect(tokens.refresh_token).toBeDefined();
    // Used once: polling again is refused.
    const again = await fetch(`${rp.server.url}/runtime/oauth2/token.idp`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: DEVICE_CODE,
        device_code: started.device_code,
        client_id: device.clientId,
      }),
    });
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('answers authorization_pending, slow_down for fast polling, then access_denied when the person denies', async () => {
    const config = await rpConfig(rp.server, device, 'none');
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const poll = async () => {
      const response = await fetch(`${rp.server.url}/runtime/oauth2/token.idp`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: DEVICE_CODE,
          device_code: started.device_code,
          client_id: device.clientId,
        }),
      });
      return { status: response.status, error: ((await response.json()) as { error: string }).error };
    };
    expect(await poll()).toEqual({ status: 400, error: 'authorization_pending' });
    expect(await poll()).toEqual({ status: 400, error: 'slow_down' });
    await approve(started.verification_uri_complete!, 'deny');
    expect(await poll()).toEqual({ status: 400, error: 'access_denied' });
  });

  it('shows an error for an unknown code and refuses a client without the grant', async () => {
    const agent = new Agent(rp.server.url);
    const page = await agent.navigate(`${rp.server.url}/runtime/oauth2/device.idp`);
    const outcome = await agent.submit(page.page!, { user_code: 'BBBB-CCCC' });
    expect(outcome.page?.status).toBe(400);
    expect(alertOf(outcome.page!)).toBe('This code is unknown or has expired.');
    const other = await createClient(rp.server, { configuration: { publicClient: true, redirectUris: [] } });
    const refused = await fetch(`${rp.server.url}/runtime/oauth2/deviceauthorization.idp`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: other.clientId }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('unauthorized_client');
  });
});
