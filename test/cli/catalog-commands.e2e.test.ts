import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalog, catalogExtensions, type OperationDef } from '../../packages/shared/src/index.js';
import { serverPerFile, unknownGuid } from '../helpers/fixtures.js';
import { type CliResult, configHome, fixtures, idsvc, mapLimit } from './cli.js';

// Every operation of the catalog has a command: its --help names the operation, and one real call through it
// reaches the operation's method and path (seen in the --verbose trace) and exits with the code of the answer.

const context = serverPerFile();
const operations: readonly OperationDef[] = [...catalog, ...catalogExtensions];
const unknownThumbprint = 'ABCDEF0123456789ABCDEF0123456789ABCDEF01';

interface Samples {
  adminId: string;
  spareUser: string;
  doomedUser: string;
}

let samples: Samples;
let env: Record<string, string>;
const home = configHome();

/** The exit code DESIGN 1.7 gives an HTTP status. */
function exitCodeOf(status: number): number {
  if (status < 300) return 0;
  if (status === 404) return 3;
  if (status === 409) return 4;
  if (status === 401 || status === 403) return 5;
  if (status < 500) return 6;
  return 1;
}

const flag = (name: string) => `--${name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()}`;
interface Parser {
  safeParse(value: unknown): { success: boolean };
}
const required = (schema: Parser) => !schema.safeParse(undefined).success;

/** A value for a path or query parameter: real objects for reads, missing ones for writes (nothing breaks). */
function sampleValue(name: string, op: OperationDef): string {
  const read = op.method === 'GET';
  const known: Record<string, string> = {
    userId: read ? samples.adminId : unknownGuid,
    groupName: read ? 'Staff' : 'no-such-group',
    organizationName: read ? 'Root' : 'no-such-organization',
    connectionName: read ? 'UsernamePassword' : 'no-such-connection',
    claimType: read ? 'email' : 'urn:no-such-claim',
    claimSetName: 'no-such-claim-set',
    thumbprint: unknownThumbprint,
    phoneNumber: '+31600000000',
    refreshToken: 'no-such-refresh-token',
    secretCode: '123456',
    correlationId: 'no-such-correlation-id',
  };
  if (known[name]) return known[name];
  return /id$/i.test(name) ? unknownGuid : `no-such-${name.toLowerCase()}`;
}

/** The smallest body of the right JSON type (an object, a list or a string); servers answer 400 to most. */
function sampleBody(op: OperationDef): string | undefined {
  if (!op.body || !required(op.body)) return undefined;
  for (const candidate of ['{}', '[]', '""']) {
    const parsed = op.body.safeParse(JSON.parse(candidate));
    const wrongType =
      !parsed.success && parsed.error.issues.some((i) => i.path.length === 0 && i.code === 'invalid_type');
    if (!wrongType) return candidate;
  }
  return '{}';
}

/** Hand-made commands take their own arguments. */
const handMade: Record<string, () => string[]> = {
  Users_GetAll: () => ['users', 'list'],
  Users_Get_Existing: () => ['users', 'get', samples.adminId],
  Users_Post: () => ['users', 'create', '--user-name', 'catalog-created', '--email', 'catalog-created@example.com'],
  Users_Put: () => ['users', 'update', samples.spareUser, '--display-name', 'Spare User'],
  Users_Delete: () => ['users', 'delete', samples.doomedUser],
  Users_GetAllLockedUsers: () => ['lockedusers', 'list'],
  Users_Patch: () => ['lockedusers', 'unlock', samples.adminId],
  Certificates_PostCertificate: () => ['certificates', 'add', path.join(fixtures, 'cert-a.pem')],
  Certificates_GetCertificate: () => ['certificates', 'get', unknownThumbprint],
  Certificates_Delete: () => ['certificates', 'delete', unknownThumbprint],
  Connections_GetAll: () => ['connections', 'list'],
  Connections_GetConnection: () => ['connections', 'get', 'UsernamePassword'],
};
/** Lists whose 404 "none found" the hand-made command shows as an empty list (exit 0). */
const emptyListOk = new Set(['Users_GetAll', 'Users_GetAllLockedUsers', 'Connections_GetAll']);

function argsOf(op: OperationDef): string[] {
  const own = handMade[op.operationId];
  if (own) return own();
  const args = [op.cli.group, op.cli.action];
  for (const name of Object.keys(op.params?.shape ?? {})) args.push(sampleValue(name, op));
  for (const [name, schema] of Object.entries(op.query?.shape ?? {})) {
    if (!required(schema as Parser)) continue;
    args.push(flag(name));
    if (!(schema as Parser).safeParse(true).success) {
      args.push(sampleValue(name, op));
    }
  }
  const body = sampleBody(op);
  if (body !== undefined) args.push('-d', body);
  return args;
}

/** The requests of a --verbose trace: method, path and the status that answered. */
function requests(stderr: string): { method: string; path: string; status: number }[] {
  const out: { method: string; path: string; status: number }[] = [];
  for (const line of stderr.split('\n')) {
    const sent = /^> (GET|POST|PUT|PATCH|DELETE) (\S+)/.exec(line);
    if (sent) out.push({ method: sent[1], path: new URL(sent[2]).pathname, status: 0 });
    const answered = /^< (\d{3}) /.exec(line);
    if (answered && out.length) out[out.length - 1].status = Number(answered[1]);
  }
  return out;
}

function templateRegex(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

beforeAll(async () => {
  const { admin, server } = context;
  env = { IDSVC_URL: server.url, IDSVC_TOKEN: String(admin.token) };
  const me = await admin.get('/api/rest/v2/users/myprofile');
  await admin.post('/api/rest/v2/groups', { body: { name: 'Staff' } });
  const created = await admin.post('/api/rest/v2/users/.batch', {
    body: [{ userName: 'catalog-spare' }, { userName: 'catalog-doomed' }],
  });
  expect(created.status).toBe(200);
  samples = { adminId: String(me.body.id), spareUser: 'catalog-spare', doomedUser: 'catalog-doomed' };
});

describe('a command for every operation of the catalog', () => {
  it('has help that names the operation, for all of them', async () => {
    expect(operations.length).toBeGreaterThanOrEqual(138);
    const results = await mapLimit(operations, 4, async (op) => ({
      op,
      result: await idsvc([op.cli.group, op.cli.action, '--help'], { configHome: home }),
    }));
    const broken = results
      .filter(({ op, result }) => result.exitCode !== 0 || !result.stdout.includes(op.operationId))
      .map(({ op, result }) => `${op.operationId} (idsvc ${op.cli.group} ${op.cli.action}): exit ${result.exitCode}`);
    expect(broken).toEqual([]);
  });

  it('reaches each operation with one real call and exits with the code of its answer', async () => {
    // reads first (they use the objects set up above), then writes (which aim at objects that do not exist)
    const ordered = [...operations].sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'));
    const results = await mapLimit(ordered, 4, async (op) => {
      const args = argsOf(op);
      const result: CliResult = await idsvc(['--verbose', ...args], { configHome: home, env });
      return { op, args, result };
    });
    const problems: string[] = [];
    let succeeded = 0;
    for (const { op, args, result } of results) {
      const reached = requests(result.stderr);
      const own = reached.filter((r) => r.method === op.method && templateRegex(op.path).test(r.path));
      const last = reached.at(-1);
      const where = `${op.operationId} (idsvc ${args.join(' ')})`;
      if (own.length === 0 || !last) {
        problems.push(`${where}: no ${op.method} ${op.path} in\n${result.stderr}`);
        continue;
      }
      const expected = emptyListOk.has(op.operationId) && last.status === 404 ? 0 : exitCodeOf(last.status);
      if (result.exitCode !== expected) {
        problems.push(`${where}: answered ${last.status}, exit ${result.exitCode} instead of ${expected}`);
      }
      if (result.exitCode === 0) succeeded++;
    }
    expect(problems).toEqual([]);
    console.log(`${results.length} operations called through their commands; ${succeeded} succeeded`);
    expect(succeeded).toBeGreaterThan(40);
  });
});
