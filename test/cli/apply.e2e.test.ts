import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/fixtures.js';
import { fixtures, idsvc, json, workDir } from './cli.js';

// `idsvc apply`, `connections apply` and `certificates add` against a real server.

const context = serverPerFile();
const dir = workDir();
const env = () => ({ IDSVC_URL: context.server.url, IDSVC_TOKEN: String(context.admin.token) });
const run = (...args: string[]) => idsvc(args, { env: env(), cwd: dir });

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

const configuration = `kind: Organization
spec: { name: Sales-EU, parentName: Sales, displayName: Sales Europe }
---
kind: Organization
spec: { name: Sales, displayName: Sales }
---
kind: Group
spec:
  name: Engineers
  description: People who build
  accessOrganizationName: Sales
---
kind: ClaimDefinition
spec:
  claimType: urn:example:department
  kind: FreeClaimDefinition
  variableName: department
  friendlyName: Department
---
kind: ClaimSet
spec: { name: Basic, claimTypes: [email, "urn:example:department"] }
`;

const connection = {
  kind: 'Connection',
  spec: {
    name: 'apply-app',
    connectionType: 'Protocol',
    pluginType: 'OAuth20',
    claimSets: ['Basic'],
    configuration: {
      clientId: 'apply-app',
      clientSecret: 'apply-app-secret-0123456789',
      redirectUris: ['https://app.example.com/callback'],
      allowedGrantTypes: ['authorization_code', 'refresh_token'],
    },
  },
};

describe('idsvc apply', () => {
  it('plans without writing, creates in dependency order, and a second run changes nothing', async () => {
    write('conf/base.yaml', configuration);
    write('conf/connections/app.json', JSON.stringify([connection]));

    const plan = await run('apply', '-f', 'conf', '--dry-run');
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout.trim().split('\n')).toEqual([
      '+ create Organization Sales',
      '+ create Organization Sales-EU',
      '+ create Group Engineers',
      '+ create ClaimDefinition urn:example:department',
      '+ create ClaimSet Basic',
      '+ create Connection apply-app',
    ]);
    expect((await context.admin.get('/api/rest/v2/groups/Engineers')).status).toBe(404);

    const first = await run('apply', '-f', 'conf');
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toContain('6 change(s): 6 created, 0 updated, 0 deleted; 0 unchanged');
    expect((await context.admin.get('/api/rest/v2/organizations/Sales-EU')).body).toMatchObject({
      parentName: 'Sales',
    });

    const second = await run('apply', '-f', 'conf');
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain('0 change(s): 0 created, 0 updated, 0 deleted; 6 unchanged');
  });

  it('updates what differs, with a field diff, and reports it as JSON', async () => {
    write('conf/base.yaml', configuration.replace('People who build', 'People who build things'));
    const plan = await run('apply', '-f', 'conf', '--dry-run', '-o', 'json');
    expect(plan.exitCode).toBe(0);
    const items = json<{ kind: string; name: string; action: string; changes: unknown[] }[]>(plan);
    expect(items.find((i) => i.name === 'Engineers')).toEqual({
      kind: 'Group',
      name: 'Engineers',
      action: 'update',
      changes: [{ path: 'description', from: 'People who build', to: 'People who build things' }],
      result: 'planned',
    });
    expect(items.filter((i) => i.action === 'unchanged')).toHaveLength(5);
    const applied = await run('apply', '-f', 'conf');
    expect(applied.stderr).toContain('1 change(s): 0 created, 1 updated');
    expect((await context.admin.get('/api/rest/v2/groups/Engineers')).body).toMatchObject({
      description: 'People who build things',
      accessOrganizationName: 'Sales',
    });
  });

  it('refuses invalid documents before writing anything (exit 6) and unknown kinds (exit 2)', async () => {
    const invalid = write(
      'invalid.yaml',
      'kind: Group\nspec: { name: Valid }\n---\nkind: Group\nspec: { name: Invalid, description: 5 }\n',
    );
    const result = await run('apply', '-f', invalid);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('invalid.yaml#2 (Group Invalid): description:');
    expect((await context.admin.get('/api/rest/v2/groups/Valid')).status).toBe(404);
    const unknown = write('unknown.yaml', 'kind: Spaceship\nspec: { name: x }\n');
    expect((await run('apply', '-f', unknown)).exitCode).toBe(2);
    const keyless = write('keyless.yaml', 'kind: Group\nspec: { description: no name }\n');
    expect((await run('apply', '-f', keyless)).exitCode).toBe(2);
  });

  it('prunes only with --prune, and without a terminal only with --yes', async () => {
    await context.admin.post('/api/rest/v2/groups', { body: { name: 'Leftover' } });
    const groups = write(
      'groups.yaml',
      'kind: Group\nspec: { name: Engineers, description: People who build things }\n',
    );
    expect((await run('apply', '-f', groups)).stdout).not.toContain('Leftover');
    const refused = await run('apply', '-f', groups, '--prune');
    expect(refused.exitCode).toBe(2);
    expect((await context.admin.get('/api/rest/v2/groups/Leftover')).status).toBe(200);
    const pruned = await run('apply', '-f', groups, '--prune', '--yes');
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('- deleted Group Leftover');
    expect((await context.admin.get('/api/rest/v2/groups/Leftover')).status).toBe(404);
  });

  it('applies plain connection objects with connections apply', async () => {
    const file = write(
      'app.yaml',
      `name: apply-app\nconnectionType: Protocol\npluginType: OAuth20\nenabled: false\nconfiguration:\n  clientId: apply-app\n  redirectUris: [https://app.example.com/callback]\n`,
    );
    const result = await run('connections', 'apply', '-f', file);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('~ updated Connection apply-app');
    expect(result.stdout).toContain('enabled: true → false');
    expect((await run('connections', 'apply', '-f', file)).stdout).toContain('= unchanged Connection apply-app');
  });
});

describe('certificates add', () => {
  it('adds PEM, DER and base64 files at once and shows thumbprint, subject and validTo', async () => {
    const files = ['cert-a.pem', 'cert-b.der', 'cert-c.b64'].map((f) => path.join(fixtures, f));
    const added = await run('certificates', 'add', ...files);
    expect(added.exitCode, added.stderr).toBe(0);
    const lines = added.stdout.trim().split('\n');
    expect(lines[0].split(/\s+/)).toEqual(['thumbprint', 'subject', 'validTo']);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[1])).toEqual([
      'CN=idsvc-cli-test-a',
      'CN=idsvc-cli-test-b',
      'CN=idsvc-cli-test-c',
    ]);
    expect(lines[1]).toMatch(/^2D95D51EA59FD1C9824751EE280BDB364023D1B9 +CN=idsvc-cli-test-a +2126-/);

    const again = await run('certificates', 'add', files[0]);
    expect(again.exitCode).toBe(4);
    const got = await run(
      'certificates',
      'get',
      '2d:95:d5:1e:a5:9f:d1:c9:82:47:51:ee:28:0b:db:36:40:23:d1:b9',
      '-o',
      'json',
    );
    expect(json(got)).toMatchObject({ subject: 'CN=idsvc-cli-test-a', storeName: 'DatabaseStore' });
    const notCertificate = write('not-a-cert.pem', 'hello');
    expect((await run('certificates', 'add', notCertificate)).exitCode).toBe(2);
  });
});
