// The machine's limits, measured in the same run as the servers: RS256 signatures/s and argon2id verifications/s
// with every core busy.
import { generateKeyPairSync, sign } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const signer = `
const { parentPort, workerData } = require('node:worker_threads');
const { createPrivateKey, sign } = require('node:crypto');
const key = createPrivateKey(workerData.pem);
const data = Buffer.from('eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJiZW5jaCIsInNjb3BlIjoiYXBpIn0');
const until = Date.now() + workerData.ms;
let n = 0;
while (Date.now() < until) { sign('sha256', data, key); n++; }
parentPort.postMessage(n);
`;

/** RS256 (2048-bit RSA, SHA-256) signatures per second, one signing thread per core. */
export async function rs256Limit(ms = 3000) {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' });
  sign('sha256', Buffer.from('warm'), privateKey);
  const cores = availableParallelism();
  const counts = await Promise.all(
    Array.from(
      { length: cores },
      () =>
        new Promise((resolve, reject) => {
          const worker = new Worker(signer, { eval: true, workerData: { pem, ms } });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  return { cores, perSecond: counts.reduce((a, b) => a + b, 0) / (ms / 1000) };
}

/** argon2id verifications per second (the server's parameters), as many at once as there are cores. */
export async function argon2Limit(ms = 4000) {
  const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
  const { hash, verify } = require('@node-rs/argon2');
  const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
  const stored = await hash('bench-password', options);
  const cores = availableParallelism();
  let n = 0;
  const until = Date.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: cores }, async () => {
      while (Date.now() < until) {
        if (!(await verify(stored, 'bench-password'))) throw new Error('argon2 verify failed');
        n++;
      }
    }),
  );
  return { cores, perSecond: n / ((performance.now() - started) / 1000) };
}
