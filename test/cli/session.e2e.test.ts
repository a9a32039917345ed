import fs from 'node:fs';
import path from 'node:path';
import { execa, execaSync } from 'execa';
import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/fixtures.js';
import { Agent } from '../runtime/agent.js';
import { bin, configHome, idsvc, json, loginAdmin } from './cli.js';

// Signing in and out, profiles, pipelines' credentials, and the exit codes of DESIGN 1.7, with the built CLI.

const context = serverPerFile();
const configFile = (home: string) => path.join(home, 'idsvc', 'config.json');

interface ConfigFile {
  current?: string;
  profiles: Record<string, { url: string; clientId: string; refreshToken?: string }>;
}
const readConfig = (home: string) => JSON.parse(fs.readFileSync(configFile(home), 'utf8')) as ConfigFile;

describe('login, profiles and logout', () => {
  it('logs in with a password, lists with the saved profile, and logs out', async () => {
    const home = configHome();
    const { server } = context;
    const login = await idsvc(['--url', server.url, 'login', '-u', 'admin', '--password-stdin'], {
      configHome: home,
      input: `${server.adminPassword}\n`,
    });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).toContain(`logged in to ${server.url} as admin`);

    const file = configFile(home);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(server.adminPassword);
    const config = readConfig(home);
    expect(config.current).toBe('default');
    expect(Object.keys(config.profiles.default).sort()).toEqual(['clientId', 'refreshToken', 'url']);
    expect(config.profiles.default).toMatchObject({ url: server.url, clientId: 'idsvc-cli' });

    const list = await idsvc(['users', 'list', '-o', 'json'], { configHome: home });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(json<{ userName: string }[]>(list).map((u) => u.userName)).toContain('admin');

    const whoami = await idsvc(['whoami', '-o', 'json'], { configHome: home });
    expect(json(whoami)).toMatchObject({
      url: server.url,
      profile: 'default',
      credentials: 'profile',
      userName: 'admin',
      roles: ['Administrator'],
    });

    const logout = await idsvc(['logout'], { configHome: home });
    expect(logout.exitCode, logout.stderr).toBe(0);
    expect(readConfig(home).profiles).toEqual({});
    const after = await idsvc(['--url', server.url, 'users', 'list'], { configHome: home });
    expect(after.exitCode).toBe(5);
    expect(after.stderr).toContain('not logged in');
  });

  it('refreshes an expired access token silently and keeps the rotated refresh token', async () => {
    const home = configHome();
    await loginAdmin(context.server, home);
    const before = readConfig(home).profiles.default.refreshToken;
    const tokens = path.join(home, 'idsvc', 'tokens.json');
    const cache = JSON.parse(fs.readFileSync(tokens, 'utf8')) as Record<string, { expiresAt: number }>;
    cache['profile:default'].expiresAt = Date.now() - 1000;
    fs.writeFileSync(tokens, JSON.stringify(cache));

    const list = await idsvc(['groups', 'list', '-o', 'json'], { configHome: home });
    expect(list.exitCode, list.stderr).toBe(0);
    const after = readConfig(home).profiles.default.refreshToken;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    // a second process right after uses the new cached token, without another refresh
    expect((await idsvc(['groups', 'list'], { configHome: home })).exitCode).toBe(0);
    expect(readConfig(home).profiles.default.refreshToken).toBe(after);
  });

  it('takes IDSVC_TOKEN, and IDSVC_CLIENT_ID with IDSVC_CLIENT_SECRET, without a profile', async () => {
    const { admin, server } = context;
    const viaToken = await idsvc(['groups', 'list'], {
      env: { IDSVC_URL: server.url, IDSVC_TOKEN: String(admin.token) },
    });
    expect(viaToken.exitCode, viaToken.stderr).toBe(0);

    const secret = 'pipeline-secret-0123456789-abcdef';
    const created = await admin.post('/api/rest/v2/connections', {
      body: {
        name: 'cli-pipeline',
        connectionType: 'Protocol',
        pluginType: 'OAuth20',
        configuration: {
          clientId: 'cli-pipeline',
          clientSecret: secret,
          allowedGrantTypes: ['client_credentials'],
          restApiRole: 'Administrator',
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const home = configHome();
    const env = { IDSVC_URL: server.url, IDSVC_CLIENT_ID: 'cli-pipeline', IDSVC_CLIENT_SECRET: secret };
    const viaClient = await idsvc(['whoami', '-o', 'json'], { env, configHome: home });
    expect(viaClient.exitCode, viaClient.stderr).toBe(0);
    expect(json(viaClient)).toMatchObject({ credentials: 'client-credentials', clientId: 'cli-pipeline' });
    const wrong = await idsvc(['groups', 'list'], {
      env: { ...env, IDSVC_CLIENT_SECRET: 'wrong-secret' },
      configHome: home,
    });
    expect(wrong.exitCode).toBe(5);

    const login = await idsvc(['--url', server.url, 'login', '--client-id', 'cli-pipeline', '--client-secret-stdin'], {
      configHome: home,
      input: secret,
    });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(fs.readFileSync(configFile(home), 'utf8')).not.toContain(secret);
    expect((await idsvc(['groups', 'list'], { configHome: home })).exitCode).toBe(0);
  });

  it('logs in with a device code approved in a browser elsewhere', async (test) => {
    const { server } = context;
    const probe = await fetch(`${server.url}/runtime/oauth2/deviceauthorization.idp`, { method: 'POST' });
    if (probe.status === 404) test.skip('the server has no device authorization endpoint yet');
    const home = configHome();
    const child = execa('node', [bin, '--url', server.url, 'login', '--device'], {
      env: { XDG_CONFIG_HOME: home, NO_COLOR: '1' },
      stdin: 'ignore',
      reject: false,
      timeout: 90_000,
    });
    let stderr = '';
    const address = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /open (\S+)/.exec(stderr);
        if (match) resolve(match[1]);
      });
      void child.then(() => reject(new Error(`login --device ended early:\n${stderr}`)));
    });
    const agent = new Agent(server.url);
    let outcome = await agent.navigate(address);
    for (let step = 0; step < 6 && outcome.page; step++) {
      const html = outcome.page.html;
      if (/name="password"/.test(html)) {
        outcome = await agent.submit(outcome.page, { username: 'admin', password: server.adminPassword });
      } else if (/name="consent"/.test(html)) {
        outcome = await agent.submit(outcome.page, {}, { name: 'consent', value: 'allow' });
      } else if (/name="user_code"/.test(html)) {
        outcome = await agent.submit(outcome.page, {});
      } else break;
    }
    const result = await child;
    expect(result.exitCode, `${result.stderr}`).toBe(0);
    expect(readConfig(home).profiles.default.refreshToken).toBeDefined();
    const whoami = await idsvc(['whoami', '-o', 'json'], { configHome: home });
    expect(json(whoami)).toMatchObject({ userName: 'admin', roles: ['Administrator'] });
  });
});

describe('exit codes', () => {
  it('gives 0, 2, 3, 4, 5, 6, 7 and 1 as DESIGN 1.7 says', async () => {
    const { admin, server } = context;
    const env = { IDSVC_URL: server.url, IDSVC_TOKEN: String(admin.token) };
    const run = (...args: string[]) => idsvc(args, { env });

    expect((await run('groups', 'create', '--set', 'name=ExitCodes')).exitCode).toBe(0);
    expect((await run('groups', 'list', '--no-such-option')).exitCode).toBe(2);
    expect((await run('groups', 'list', '-o', 'xml')).exitCode).toBe(2);
    expect((await run('no-such-command')).exitCode).toBe(2);
    const missing = await run('groups', 'get', 'NoSuchGroup');
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toMatch(/^error: 404 not_found: .*NoSuchGroup/m);
    expect((await run('groups', 'create', '--set', 'name=ExitCodes')).exitCode).toBe(4);
    expect((await idsvc(['groups', 'list'], { env: { ...env, IDSVC_TOKEN: 'not-a-token' } })).exitCode).toBe(5);
    const invalid = await run('groups', 'create', '-d', '{"name": 5}');
    expect(invalid.exitCode).toBe(6);
    expect(invalid.stderr).toMatch(/^error: 400 invalid_request: /m);
    expect(invalid.stderr).toMatch(/^ {2}- name: /m);
    await admin.post('/api/rest/v2/users', { body: { userName: 'exit-seven' } });
    const partly = await run('users', 'delete', 'exit-seven', 'no-such-user');
    expect(partly.exitCode).toBe(7);
    expect(partly.stderr).toContain('deleted user exit-seven');
    expect((await idsvc(['--url', 'http://127.0.0.1:1', '--token', 'x', 'groups', 'list'])).exitCode).toBe(1);
  });

  it('never prompts or waits without a terminal: a missing value is exit 2 at once', async () => {
    const { server } = context;
    for (const args of [
      ['--url', server.url, 'login'],
      ['--url', server.url, 'login', '-u', 'admin'],
      ['--url', server.url, '--token', 'x', 'users', 'create'],
      ['--url', server.url, 'login', '--client-id', 'someone'],
    ]) {
      const result = await idsvc(args, { timeoutMs: 20_000 });
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/is required \(no terminal to ask on\)/);
      expect(result.ms).toBeLessThan(10_000);
    }
  });
});

describe('shell completion', () => {
  it('prints bash and zsh scripts generated from the command tree', async () => {
    const bash = await idsvc(['completion', 'bash']);
    expect(bash.exitCode).toBe(0);
    expect(execaSync('bash', ['-n'], { input: bash.stdout, reject: false }).exitCode).toBe(0);
    const script = `${bash.stdout}\nCOMP_WORDS=(idsvc users im); COMP_CWORD=2; _idsvc; echo "\${COMPREPLY[@]}"`;
    expect(execaSync('bash', ['-c', script]).stdout).toBe('import');
    const zsh = await idsvc(['completion', 'zsh']);
    expect(zsh.exitCode).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef idsvc/);
    expect(zsh.stdout).toContain("'users:users\\: list, create, import, export, lock and unlock'");
    expect((await idsvc(['completion', 'fish'])).exitCode).toBe(2);
  });
});
