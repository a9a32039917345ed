// The CLI's figures: `idsvc --help` start time against `node -e 0`, and end-to-end `idsvc users import` rates
// (100,000 rows without passwords; 2,000 with passwords against the single-core argon2id rate).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, startBenchServer } from './server.mjs';

const bin = new URL('../../packages/cli/dist/bin.js', import.meta.url).pathname;
const fmt = (n) => Math.round(n).toLocaleString('en-US');

function medianMs(args, runs = 15) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
    times.push(performance.now() - started);
  }
  return percentile(times, 50);
}

export function startTime() {
  medianMs(['-e', '0'], 3); // warm the file cache
  const node = medianMs(['-e', '0']);
  const help = medianMs([bin, '--help']);
  const ratio = help / node;
  console.log(
    `idsvc --help: ${help.toFixed(0)} ms, node -e 0: ${node.toFixed(0)} ms, ratio ${ratio.toFixed(2)} (target ≤ 3)`,
  );
  return ratio;
}

function csv(rows, withPasswords) {
  const header = withPasswords ? 'userName,email,displayName,password' : 'userName,email,displayName,groups';
  const lines = [header];
  for (let i = 0; i < rows; i++) {
    const n = String(i).padStart(6, '0');
    lines.push(
      withPasswords
        ? `pw${n},pw${n}@bench.example,Bench Password ${n},Pw-${n}-correct-horse`
        : `cli${n},cli${n}@bench.example,Bench CLI ${n},${i % 10 === 0 ? 'Staff' : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Runs `idsvc users import` on a generated file and returns users per second, start to exit. */
async function importRate(server, dir, rows, withPasswords) {
  const file = join(dir, `${withPasswords ? 'pw' : 'plain'}-${rows}.csv`);
  writeFileSync(file, csv(rows, withPasswords));
  const started = performance.now();
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, '--quiet', 'users', 'import', file], {
      env: { ...process.env, IDSVC_URL: server.url, IDSVC_TOKEN: server.token, XDG_CONFIG_HOME: dir },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`idsvc users import exited ${code}`);
  return rows / ((performance.now() - started) / 1000);
}

/** argon2id hashes per second on one core, with the server's parameters. */
async function singleCoreArgon2Rate() {
  const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
  const { hash } = require('@node-rs/argon2');
  const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
  await hash('warm-up', options);
  const count = 20;
  const started = performance.now();
  for (let i = 0; i < count; i++) await hash(`password-${i}`, options); // one at a time: one core
  return count / ((performance.now() - started) / 1000);
}

export async function importBench() {
  const dir = mkdtempSync(join(tmpdir(), 'idsvc-bench-cli-'));
  const server = await startBenchServer();
  try {
    await fetch(`${server.url}/api/rest/v2/groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Staff' }),
    });
    const plain = await importRate(server, dir, 100_000, false);
    console.log(`idsvc users import, 100,000 rows without passwords: ${fmt(plain)} users/s (target ≥ 3,000)`);
    const withPasswords = await importRate(server, dir, 2_000, true);
    const single = await singleCoreArgon2Rate();
    console.log(
      `idsvc users import, 2,000 rows with passwords: ${fmt(withPasswords)} users/s; single-core argon2id: ${single.toFixed(1)} hashes/s; ` +
        `${(withPasswords / single).toFixed(2)}× one core (${availableParallelism()} cores here)`,
    );
    return { plain, withPasswords, single };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
