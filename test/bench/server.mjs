// Starts the built server for a benchmark and gets an admin token.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = new URL('../../packages/cli/dist/bin.js', import.meta.url).pathname;
const password = 'bench-Admin-pass-1';

export async function startBenchServer(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'idsvc-bench-'));
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, IDSVC_ADMIN_PASSWORD: password, IDSVC_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const token = await adminToken(url);
  return {
    url,
    token,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

async function adminToken(url) {
  const res = await fetch(`${url}/runtime/oauth2/token.idp`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'idsvc-cli',
      username: 'admin',
      password,
      scope: 'identify*scim',
    }),
  });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  return (await res.json()).access_token;
}

export function api(server) {
  return async (method, path, body) => {
    const res = await fetch(`${server.url}/api/rest/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
