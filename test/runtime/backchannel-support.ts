import type { IncomingMessage, ServerResponse } from 'node:http';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, expect } from 'vitest';
import type * as Jose from '../../packages/server/node_modules/jose/dist/types/index.js';
import { type HttpEndpoint, startHttpEndpoint } from '../../packages/server/src/test-support/http-endpoint.js';
import { type Agent, signIn } from './agent.js';
import {
  type CreatedClient,
  createClient,
  type RuntimeServer,
  rpConfig,
  TEST_REDIRECT_URI,
  testPassword,
  unique,
} from './support.js';
import { afterLogout } from './upstream-logout-support.js';

/** Back-channel logout to clients in end-to-end tests: the clients' endpoint, and the logout tokens it receives. */

/** jose, as the server has it (the tests' own dependencies do not include it). */
const joseEntry = '../../packages/server/node_modules/jose/dist/webapi/index.js';
export const { createRemoteJWKSet, jwtVerify } = (await import(joseEntry)) as typeof Jose;
export type JWTPayload = Jose.JWTPayload;

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** A post the clients' endpoint received. */
export interface Received {
  path: string;
  contentType: string | undefined;
  fields: URLSearchParams;
  token: string;
}

/**
 * The clients' back-channel logout endpoints for the file's server (started and stopped with the file), each path
 * its own: a path starting /fail answers 500, one starting /hang answers only when the test lets it, any other 200.
 */
export function backchannelEndpoint(rp: { server: RuntimeServer }) {
  let endpoint: HttpEndpoint;
  let endpointUrl = '';
  const received: Received[] = [];
  const waiting: { path: string; resolve: (request: Received) => void }[] = [];
  const held: ServerResponse[] = [];

  function answer(req: IncomingMessage, res: ServerResponse, body: string) {
    const fields = new URLSearchParams(body);
    const request = {
      path: req.url ?? '',
      contentType: req.headers['content-type'],
      fields,
      token: fields.get('logout_token') ?? '',
    };
    received.push(request);
    for (const waiter of waiting.filter((w) => w.path === request.path)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(request);
    }
    if (request.path.startsWith('/fail')) res.writeHead(500).end('failed');
    else if (request.path.startsWith('/hang')) held.push(res);
    else res.writeHead(200, { 'cache-control': 'no-store' }).end();
  }

  beforeAll(async () => {
    endpoint = await startHttpEndpoint(answer);
    endpointUrl = endpoint.url;
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    await endpoint.close();
  });

  const jwks = () => createRemoteJWKSet(new URL(`${rp.server.issuer}/jwks.idp`));

  return {
    /** The endpoint's address. */
    url: () => endpointUrl,
    /** The next post to the path (wait for it before what sends it). */
    nextPost: (path: string) => new Promise<Received>((resolve) => waiting.push({ path, resolve })),
    postsTo: (path: string) => received.filter((r) => r.path === path),
    jwks,

    /**
     * The server's records that a back-channel logout of the user's ended sessions is over (every post has an
     * outcome), once there is one: the clients told, and how many answered 200 or 204.
     */
    async logoutsDone(userId: string): Promise<{ clients: string[]; delivered: number }[]> {
      const done = () =>
        rp.server.logs.filter(
          (r) => r.msg === 'back-channel logout done' && (r.userIds as string[]).includes(userId),
        ) as unknown as { clients: string[]; delivered: number }[];
      while (done().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      return done().map(({ clients, delivered }) => ({ clients, delivered }));
    },

    /** A client with the notification on, posting to its own path of the endpoint (`/fail…` or `/hang…` to fail). */
    async notifiedClient(prefix = '/ok', configuration: Record<string, unknown> = {}) {
      const path = `${prefix}-${unique('bc')}`;
      const client = await createClient(rp.server, {
        configuration: {
          redirectUris: [TEST_REDIRECT_URI],
          postLogoutRedirectUris: [afterLogout],
          enableSessionStatusChangeNotification: true,
          backchannelLogoutUri: `${endpointUrl}${path}`,
          ...configuration,
        },
      });
      return { client, path };
    },

    /** Signs in to the client in the browser through the code flow (openid-client); the ID token and its claims. */
    async signedIn(agent: Agent, client: CreatedClient, userName: string, metadata: Partial<oidc.ClientMetadata> = {}) {
      const config = await rpConfig(rp.server, client, 'basic', metadata);
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, { redirect_uri: TEST_REDIRECT_URI, scope: 'openid', nonce });
      const callback = await signIn(agent, url, userName, testPassword);
      const tokens = await oidc.authorizationCodeGrant(config, callback, { expectedNonce: nonce });
      return { idToken: tokens.id_token!, claims: tokens.claims()! };
    },

    /**
     * Verifies a logout token (OpenID Connect Back-Channel Logout 1.0 §2.6) and checks it names the ID token's
     * sign-in.
     */
    async expectLogoutToken(
      token: string,
      client: CreatedClient,
      idToken: JWTPayload,
      key?: Uint8Array,
    ): Promise<JWTPayload> {
      const options = { issuer: rp.server.issuer, audience: client.clientId, typ: 'logout+jwt', maxTokenAge: '2m' };
      const { payload, protectedHeader } = key
        ? await jwtVerify(token, key, options)
        : await jwtVerify(token, jwks(), options);
      expect(protectedHeader.typ).toBe('logout+jwt');
      expect(Object.keys(payload).sort()).toEqual(['aud', 'events', 'exp', 'iat', 'iss', 'jti', 'sid', 'sub']);
      expect(payload).toMatchObject({
        iss: rp.server.issuer,
        aud: client.clientId,
        sub: idToken.sub,
        sid: idToken.sid,
        events: { [EVENT]: {} },
        jti: expect.any(String),
      });
      expect(payload.exp! - payload.iat!).toBe(120);
      expect(payload.nonce).toBeUndefined();
      return payload;
    },
  };
}
