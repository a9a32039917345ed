// Token endpoint throughput: client_credentials and password grants/s of idsvc beside node-oidc-provider (the peer)
// and, for client_credentials, beside the floor (floor.mjs: node:http and one signature, nothing else), against the
// machine's limits measured in the same run (RS256 signatures/s and argon2id verifications/s with every core busy).
// Targets (RS256 on both sides): idsvc client_credentials ≥ 1.5 × the peer's and ≥ 0.75 × the signing limit on one
// server process; password grants ≥ 0.7 × the argon2id limit.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { cpuNanoseconds } from './cpu-time.mjs';
import { argon2Limit, rs256Limit } from './limits.mjs';
import { formRequest, runLoad } from './load.mjs';
import { api, startBenchServer } from './server.mjs';

const secret = 'bench-client-secret-0123456789abcdef';
const userPassword = 'bench-User-pass-1';
const basic = (id) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const JWT_ANSWER = Buffer.from('"access_token":"ey');

/** The two token requests of the bench, for one server. */
function requests(target, path, pid) {
  const { host, port } = new URL(target);
  const address = { host: host.split(':')[0], port: Number(port) };
  const form = (grant, extra) => ({ grant_type: grant, scope: 'api', ...extra });
  return {
    clientCredentials: {
      address,
      pid,
      connections: 32,
      request: formRequest(host, path, form('client_credentials', {}), { Authorization: basic('bench-cc') }),
    },
    password: {
      address,
      pid,
      connections: 8,
      request: formRequest(host, path, form('password', { username: 'bench-user', password: userPassword }), {
        Authorization: basic('bench-pw'),
      }),
    },
  };
}

/** A 200 answer holding a JWT access token (searched in the bytes, no string made). */
const check = (buf) => buf.includes(JWT_ANSWER);

/**
 * Loads one server; besides the grants/s, the CPU time per grant of the server process (all threads) and of the
 * load generator, in microseconds (undefined where the system does not tell).
 */
async function load(target, durationMs) {
  let server;
  let generator;
  const result = await runLoad({
    ...target.address,
    makeRequest: () => target.request,
    connections: target.connections,
    warmupMs: 500,
    durationMs,
    check,
    onMeasure: (phase) => {
      if (phase === 'start') {
        server = cpuNanoseconds(target.pid);
        generator = process.cpuUsage();
      } else {
        const spent = cpuNanoseconds(target.pid);
        server = server === undefined || spent === undefined ? undefined : (spent - server) / 1000;
        generator = process.cpuUsage(generator);
        generator = generator.user + generator.system;
      }
    },
  });
  const perGrant = (us) => (us === undefined || result.completed === 0 ? undefined : us / result.completed);
  return { ...result, serverCpu: perGrant(server), generatorCpu: perGrant(generator) };
}

/** idsvc (`idsvc serve`, one process) with the bench's two clients and user, made through the admin API. */
async function startIdsvc(env) {
  const server = await startBenchServer(env);
  const call = api(server);
  for (const [name, grant, extra] of [
    ['bench-cc', 'client_credentials', { restApiRole: 'Observer' }],
    ['bench-pw', 'password', {}],
  ]) {
    await call('POST', '/connections', {
      name,
      connectionType: 'Protocol',
      pluginType: 'OAuth20',
      scopes: ['api'],
      configuration: {
        clientId: name,
        clientSecret: secret,
        allowedGrantTypes: [grant],
        signingAlgorithm: 'RS256',
        ...extra,
      },
    });
  }
  await call('POST', '/users', { userName: 'bench-user', password: userPassword });
  return { url: server.url, path: '/runtime/oauth2/token.idp', pid: server.pid, stop: server.stop };
}

/** A bench server script of this folder in its own process (it prints `listening on <url>`). */
async function startScript(name, env, path) {
  const script = fileURLToPath(new URL(name, import.meta.url));
  const child = spawn(process.execPath, [script, '0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return { url, path, pid: child.pid, stop };
}

/** The peer: node-oidc-provider 8 in its own process. */
const startPeer = (env) =>
  startScript(
    './peer.mjs',
    { ...env, BENCH_SECRET: secret, BENCH_PASSWORD: userPassword, NODE_ENV: 'production' },
    '/token',
  );

/** The floor: node:http and one signature per request, nothing else (floor.mjs). */
const startFloor = (env) => startScript('./floor.mjs', env, '/token');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (a, b) => (a + b) / 2;

const n = (value) => Math.round(value).toLocaleString('en-US');
const ratio = (value) => value.toFixed(2);

/**
 * One grant type on each server (the floor for client_credentials only), each run bracketed by measurements of the
 * machine's limit: limit, idsvc, limit, peer, limit[, floor, limit]. Each server's run is compared with the mean of
 * the limits just before and just after it, so that a change in the machine's load moves the limit and the server
 * alike.
 */
async function measureRound(targets, grant, limit, durationMs) {
  const limits = [await limit()];
  const round = {};
  for (const who of Object.keys(targets).filter((name) => targets[name][grant])) {
    const result = await load(targets[who][grant], durationMs);
    if (result.failed > 0) console.log(`${who} ${grant}: ${result.failed} failed, first: ${result.firstFailure}`);
    limits.push(await limit());
    round[who] = result.perSecond;
    round[`${who}Cpu`] = result.serverCpu;
    round[`${who}OfLimit`] = result.perSecond / mean(limits.at(-2), limits.at(-1));
    if (who === 'idsvc') round.generatorCpu = result.generatorCpu;
  }
  round.limit = limits.reduce((a, b) => a + b, 0) / limits.length;
  round.idsvcOfPeer = round.idsvc / round.peer;
  if (round.floor !== undefined) round.idsvcOfFloor = round.idsvc / round.floor;
  return round;
}

/**
 * Runs the runtime bench and prints its table; returns the figures. The servers run at once but only one is
 * loaded at a time. Each figure is the median over the rounds; each ratio is the median of the rounds' ratios.
 */
export async function runtimeBench({ rounds = 5, durationMs = 4000 } = {}) {
  const env = { UV_THREADPOOL_SIZE: String(availableParallelism()) };
  const ours = await startIdsvc(env);
  const theirs = await startPeer(env);
  const floor = await startFloor(env);
  const cc = [];
  const pw = [];
  try {
    const targets = {
      idsvc: requests(ours.url, ours.path, ours.pid),
      peer: requests(theirs.url, theirs.path, theirs.pid),
      floor: { clientCredentials: requests(floor.url, floor.path, floor.pid).clientCredentials },
    };
    for (let round = 0; round < rounds; round++) {
      cc.push(
        await measureRound(targets, 'clientCredentials', async () => (await rs256Limit(1500)).perSecond, durationMs),
      );
      pw.push(await measureRound(targets, 'password', async () => (await argon2Limit(2000)).perSecond, durationMs));
    }
  } finally {
    await ours.stop();
    await theirs.stop();
    await floor.stop();
  }
  const m = (list, key) => median(list.map((r) => r[key]));
  const checks = [
    ['client_credentials ≥ 1.5 × peer', m(cc, 'idsvcOfPeer'), 1.5],
    ['client_credentials ≥ 0.75 × RS256 limit', m(cc, 'idsvcOfLimit'), 0.75],
    ['password ≥ 0.7 × argon2id limit', m(pw, 'idsvcOfLimit'), 0.7],
  ];
  const cores = availableParallelism();
  console.log(`\ntoken endpoint, ${cores} cores, RS256 access tokens on both sides (median of ${rounds} rounds)`);
  console.log(`  machine limit: RS256 signatures/s, every core busy   ${n(m(cc, 'limit')).padStart(8)}`);
  console.log(`  machine limit: argon2id verifications/s             ${n(m(pw, 'limit')).padStart(8)}`);
  console.log('                                   idsvc      peer     floor (peer: oidc-provider 8; floor: floor.mjs)');
  console.log(
    `  client_credentials grants/s   ${n(m(cc, 'idsvc')).padStart(8)}  ${n(m(cc, 'peer')).padStart(8)}  ${n(m(cc, 'floor')).padStart(8)}`,
  );
  console.log(`  password grants/s             ${n(m(pw, 'idsvc')).padStart(8)}  ${n(m(pw, 'peer')).padStart(8)}`);
  // Where a grant's time goes: CPU per grant of each server (all its threads) and of the load generator, beside
  // the CPU one signature takes with every core busy (the limit's cost).
  const signature = (cores * 1e6) / m(cc, 'limit');
  const us = (list, key) => (list.some((r) => r[key] === undefined) ? 'n/a' : n(m(list, key)));
  console.log(
    `  CPU per client_credentials grant, µs   ${us(cc, 'idsvcCpu').padStart(8)}  ${us(cc, 'peerCpu').padStart(8)}  ${us(cc, 'floorCpu').padStart(8)}`,
  );
  console.log(
    `  of which an RS256 signature, µs         ${n(signature).padStart(8)}; load generator per grant ${us(cc, 'generatorCpu')} µs`,
  );
  // No grant costs less than its signature: on this machine no server can beat the peer by more than this.
  if (!cc.some((r) => r.peerCpu === undefined)) {
    console.log(
      `  ceiling of client_credentials × peer here (a signature alone per grant): ${ratio(m(cc, 'peerCpu') / signature)}`,
    );
  }
  // The floor does nothing but HTTP and the signature: what is left to idsvc's code, and what node:http and the
  // hand-over to the thread pool leave of the signing limit on this machine.
  console.log(
    `  client_credentials of the floor ${m(cc, 'idsvcOfFloor').toFixed(3)}; the floor of the RS256 limit ${m(cc, 'floorOfLimit').toFixed(3)}`,
  );
  // Three decimals: a ratio just under its target must not print as the target itself.
  for (const [name, value, target] of checks) {
    console.log(`  ${name.padEnd(42)} ${value.toFixed(3).padStart(6)}  ${value >= target ? 'met' : 'NOT met'}`);
  }
  const roundsOf = (key) => cc.map((r) => ratio(r[key])).join(' ');
  console.log(
    `  rounds, client_credentials of the limit: ${roundsOf('idsvcOfLimit')}; of the peer: ${roundsOf('idsvcOfPeer')}; of the floor: ${roundsOf('idsvcOfFloor')}; the floor of the limit: ${roundsOf('floorOfLimit')}`,
  );
  return { rounds: { clientCredentials: cc, password: pw }, checks };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runtimeBench();
