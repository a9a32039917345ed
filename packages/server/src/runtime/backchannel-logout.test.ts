import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userClaims } from '../db/schema/index.js';
import type { Logger } from '../http/logger.js';
import { createTestContext, type TestContext } from '../test-support/context.js';
import { createTestClient, createTestUser } from '../test-support/fixtures.js';
import { type HttpEndpoint, startHttpEndpoint } from '../test-support/http-endpoint.js';
import { deliverLogoutTokens, notifySessionsEnded, postLogoutToken } from './backchannel-logout.js';

interface Received {
  path: string;
  contentType: string | undefined;
  body: URLSearchParams;
}

/** The clients' back-channel endpoints: /ok 200, /no-content 204, /fail 500, /redirect 302 to /ok, /hang never. */
let endpoint: HttpEndpoint;
let base: string;
const received: Received[] = [];
const waiting: ((request: Received) => void)[] = [];
const hanging: ServerResponse[] = [];

function answer(req: IncomingMessage, res: ServerResponse, body: string) {
  const request = { path: req.url ?? '', contentType: req.headers['content-type'], body: new URLSearchParams(body) };
  received.push(request);
  for (const resolve of waiting.splice(0)) resolve(request);
  if (request.path === '/ok') res.writeHead(200).end();
  else if (request.path === '/no-content') res.writeHead(204).end();
  else if (request.path === '/redirect') res.writeHead(302, { location: `${base}/ok` }).end();
  else if (request.path === '/hang') hanging.push(res);
  else res.writeHead(500).end('failed');
}

const nextRequest = () => new Promise<Received>((resolve) => waiting.push(resolve));

const logs: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
const logWaiters: (() => void)[] = [];
const record =
  (level: string) =>
  (msg: string, fields: Record<string, unknown> = {}) => {
    logs.push({ level, msg, fields });
    for (const resolve of logWaiters.splice(0)) resolve();
  };
const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };

async function logged(level: string, msg: string, clientId: string) {
  const find = () => logs.find((l) => l.level === level && l.msg === msg && l.fields.clientId === clientId);
  while (!find()) await new Promise<void>((resolve) => logWaiters.push(resolve));
  return find()!;
}

/** A port nothing listens on: one a server had, closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let ctx: TestContext;
let userId: string;

beforeAll(async () => {
  endpoint = await startHttpEndpoint(answer);
  base = endpoint.url;
  ctx = await createTestContext({ logger });
  userId = (await createTestUser(ctx.db)).id;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await endpoint.close();
  await ctx?.close();
});

/** A client with the notification on at `path` of the endpoint (or the address given), or off. */
async function client(
  at: string | undefined,
  configuration: Record<string, unknown> = {},
  enabled = true,
): Promise<string> {
  const notification =
    at === undefined
      ? {}
      : {
          enableSessionStatusChangeNotification: true,
          backchannelLogoutUri: at.startsWith('/') ? `${base}${at}` : at,
        };
  return (await createTestClient(ctx.db, ctx.box, { configuration: { ...notification, ...configuration }, enabled }))
    .clientId;
}

describe('back-channel logout delivery', () => {
  it('posts a logout token as a form to each notified client of each session, and to no other', async () => {
    const on = await client('/ok');
    const noContent = await client('/no-content');
    const off = await client(undefined);
    const addressOnly = await client(undefined, { backchannelLogoutUri: `${base}/ok` });
    const flagOnly = await client(undefined, { enableSessionStatusChangeNotification: true });
    const disabled = await client('/ok', {}, false);
    const [first, second] = [randomUUID(), randomUUID()];
    received.length = 0;
    const deliveries = await deliverLogoutTokens(ctx, [
      { id: first, userId, clients: [on, off, addressOnly, flagOnly, disabled, 'unknown-client', noContent] },
      { id: second, userId, clients: [on] },
    ]);
    expect(deliveries).toEqual([
      { clientId: on, delivered: true, outcome: 'HTTP 200' },
      { clientId: noContent, delivered: true, outcome: 'HTTP 204' },
      { clientId: on, delivered: true, outcome: 'HTTP 200' },
    ]);
    expect(received.map((r) => r.path).sort()).toEqual(['/no-content', '/ok', '/ok']);
    for (const request of received) {
      expect(request.contentType).toBe('application/x-www-form-urlencoded');
      expect([...request.body.keys()]).toEqual(['logout_token']);
    }
    const tokens = received.map((r) => decodeJwt(r.body.get('logout_token')!));
    expect(tokens.map((t) => [t.aud, t.sid, t.sub]).sort()).toEqual(
      [
        [on, first, userId],
        [noContent, first, userId],
        [on, second, userId],
      ].sort(),
    );
  });

  it('gives a client with useNameIdAsSub the NameID as sub, as in its ID tokens', async () => {
    const nameId = await client('/ok', { useNameIdAsSub: true });
    await ctx.db.insert(userClaims).values({ userId, type: 'nameid', value: 'jane@example.test' });
    received.length = 0;
    await deliverLogoutTokens(ctx, [{ id: randomUUID(), userId, clients: [nameId] }]);
    expect(decodeJwt(received[0].body.get('logout_token')!).sub).toBe('jane@example.test');
  });

  it('logs a warning naming the client and the outcome for a 500, a redirect (not followed) and a refused connection', async () => {
    const failing = await client('/fail');
    const redirecting = await client('/redirect');
    const refused = await client(`http://127.0.0.1:${await closedPort()}/logout`);
    received.length = 0;
    const deliveries = await deliverLogoutTokens(ctx, [
      { id: randomUUID(), userId, clients: [failing, redirecting, refused] },
    ]);
    expect(deliveries).toEqual([
      { clientId: failing, delivered: false, outcome: 'HTTP 500' },
      { clientId: redirecting, delivered: false, outcome: 'HTTP 302' },
      { clientId: refused, delivered: false, outcome: 'network error (ECONNREFUSED)' },
    ]);
    expect(received.map((r) => r.path).sort()).toEqual(['/fail', '/redirect']);
    for (const delivery of deliveries) {
      const warning = await logged('warn', 'back-channel logout not delivered', delivery.clientId);
      expect(warning.fields).toEqual({ clientId: delivery.clientId, outcome: delivery.outcome });
    }
    expect(JSON.stringify(logs)).not.toContain('eyJ');
  });

  it('gives up on a client that does not answer within the timeout', async () => {
    const arrived = nextRequest();
    const outcome = await postLogoutToken(`${base}/hang`, 'a.b.c', 0.2);
    expect(outcome).toEqual({ delivered: false, outcome: 'no answer within 0.2 s' });
    expect((await arrived).path).toBe('/hang');
  });

  it('notifies without waiting and never rejects: the post arrives afterwards, a failure is logged', async () => {
    const on = await client('/ok');
    const failing = await client('/fail');
    const arrived = nextRequest();
    expect(notifySessionsEnded(ctx, [undefined, { id: randomUUID(), userId, clients: [on] }])).toBeUndefined();
    expect((await arrived).path).toBe('/ok');
    await logged('debug', 'back-channel logout delivered', on);
    notifySessionsEnded(ctx, [{ id: randomUUID(), userId, clients: [failing] }]);
    expect((await logged('warn', 'back-channel logout not delivered', failing)).fields.outcome).toBe('HTTP 500');
    const done = () => logs.filter((l) => l.msg === 'back-channel logout done').map((l) => l.fields);
    while (done().length < 2) await new Promise<void>((resolve) => logWaiters.push(resolve));
    expect(done()).toEqual([
      { userIds: [userId], clients: [on], delivered: 1 },
      { userIds: [userId], clients: [failing], delivered: 0 },
    ]);
  });
});
