import { pbkdf2Sync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { passwordGrant, totalCount } from '../helpers/api.js';
import { serverPerFile } from '../helpers/fixtures.js';
import { idsvc, workDir } from './cli.js';

// `idsvc users import` / `users export` against a real server: batches, failures, resume, dry run, migrated
// password hashes, and the export → import round trip.

const context = serverPerFile();
const dir = workDir();

function env() {
  return { IDSVC_URL: context.server.url, IDSVC_TOKEN: String(context.admin.token) };
}
const run = (...args: string[]) => idsvc(args, { env: env(), cwd: dir });

function writeCsv(name: string, header: string, rows: string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${header}\n${rows.join('\n')}\n`);
  return file;
}

/** How many users have a userName starting with `prefix`. */
async function countUsers(prefix: string): Promise<number> {
  const response = await context.admin.get('/api/rest/v2/users/.filter', {
    query: { filter: `userName sw "${prefix}"`, pageSize: 1 },
  });
  return totalCount(response);
}

describe('users import', () => {
  it('imports 10,000 rows in batches', async () => {
    await context.admin.post('/api/rest/v2/groups', { body: { name: 'Staff' } });
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      const n = String(i).padStart(5, '0');
      return `bulk${n},bulk${n}@example.com,Bulk ${n},Root,${i % 10 === 0 ? 'Staff' : ''},true,,${i % 2 ? 'nl' : 'en'}`;
    });
    const file = writeCsv(
      'bulk.csv',
      'userName,email,displayName,organization,groups,active,phoneNumber,claim:locale',
      rows,
    );
    const result = await run('users', 'import', file);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('10,000 rows: 10,000 created, 0 updated, 0 skipped (imported already), 0 failed');
    expect(await countUsers('bulk')).toBe(10_000);
    const one = await context.admin.get('/api/rest/v2/users/.filter', { query: { filter: 'userName eq "bulk00010"' } });
    expect((one.body as unknown as Record<string, unknown>[])[0]).toMatchObject({
      email: 'bulk00010@example.com',
      groups: ['Staff'],
      claims: [{ type: 'locale', value: 'en' }],
    });
    // 10,000 users through the built CLI: seconds alone, more on a machine busy with other suites.
  }, 180_000);

  it('loses only the batch with a bad row, names the row in the errors file, exits 7, and resumes after the fix', async () => {
    const rows = Array.from({ length: 1_500 }, (_, i) => {
      const n = String(i).padStart(4, '0');
      return `part${n},part${n}@example.com,${i === 1_234 ? 'NoSuchGroup' : 'Staff'}`;
    });
    const file = writeCsv('partial.csv', 'userName,email,groups', rows);
    const errors = path.join(dir, 'partial-errors.csv');
    const first = await run('users', 'import', file, '--batch-size', '500', '--errors', errors);
    expect(first.exitCode, first.stderr).toBe(7);
    expect(first.stderr).toContain('1,500 rows: 1,000 created, 0 updated, 0 skipped (imported already), 500 failed');
    expect(await countUsers('part0')).toBe(1_000);
    expect(await countUsers('part1')).toBe(0);

    const lines = fs.readFileSync(errors, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('row,reason,userName,email,groups');
    expect(lines).toHaveLength(501);
    // the header is row 1, so data row 1234 (0-based) is row 1236
    const bad = lines.find((l) => l.startsWith('1236,'));
    expect(bad).toMatch(/^1236,.*NoSuchGroup.*,part1234,part1234@example\.com,NoSuchGroup$/);
    expect(lines.filter((l) => l.includes('because of row 1236'))).toHaveLength(499);

    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('NoSuchGroup', 'Staff'));
    const second = await run('users', 'import', file, '--batch-size', '500', '--resume', '--errors', errors);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain('1,500 rows: 500 created, 0 updated, 1,000 skipped (imported already), 0 failed');
    expect(await countUsers('part')).toBe(1_500);
    expect(fs.readFileSync(errors, 'utf8').trim()).toBe('row,reason,userName,email,groups');
  });

  it('checks a dry run against the server and writes nothing', async () => {
    const good = writeCsv('dry-good.csv', 'userName,email,organization,groups', [
      'dry1,dry1@example.com,Root,Staff',
      'dry2,dry2@example.com,,',
    ]);
    const clean = await run('users', 'import', good, '--dry-run');
    expect(clean.exitCode, clean.stderr).toBe(0);
    expect(clean.stderr).toContain('dry run, nothing written: 2 rows: 2 to create');

    const bad = writeCsv('dry-bad.csv', 'userName,email,organization,groups', [
      'dry3,dry3@example.com,NoSuchOrg,',
      'dry4,bulk00001@example.com,,',
      'bulk00002,dry5@example.com,,',
      'dry6,dry6@example.com,,NoSuchGroup',
      'dry3,dry7@example.com,,',
      'dry8,not-an-email,,',
    ]);
    const errors = path.join(dir, 'dry-errors.csv');
    const checked = await run('users', 'import', bad, '--dry-run', '--errors', errors);
    expect(checked.exitCode).toBe(6);
    const reasons = fs.readFileSync(errors, 'utf8');
    expect(reasons).toMatch(/^2,no organization NoSuchOrg,/m);
    expect(reasons).toMatch(/^3,email bulk00001@example\.com belongs to user bulk00001,/m);
    expect(reasons).toMatch(/^4,userName bulk00002 exists,/m);
    expect(reasons).toMatch(/^5,no group NoSuchGroup,/m);
    expect(reasons).toMatch(/^6,duplicate userName dry3: row 2 has it too,/m);
    expect(reasons).toMatch(/^7,email: must be an e-mail address,/m);
    expect(await countUsers('dry')).toBe(0);
  });

  it('stores migrated password hashes as given, and a password grant then succeeds', async () => {
    const password = 'Migrated-Passw0rd!';
    const salt = Buffer.from('idsvc-test-salt!');
    const pbkdf2 = `$pbkdf2-sha256$i=1000$${salt.toString('base64').replace(/=+$/, '')}$${pbkdf2Sync(password, salt, 1000, 32, 'sha256').toString('base64').replace(/=+$/, '')}`;
    const file = writeCsv('hashes.csv', 'userName,passwordHash', [
      'hash-bcrypt,$2b$06$HUamlSsH2RFdE4CVWaKize1Fo3R8ZYKKKYQkhpX8HkhI1Kkfhx3iG',
      // an argon2 PHC string holds commas: CSV quotes it
      'hash-argon2i,"$argon2i$v=19$m=4096,t=3,p=1$IaSxZnOKCaFftUIK/TbpCg$ydl6tQN2T4aBNBUjCgDmOwi54J5Vt6WO9BW3G8tiKlE"',
      `hash-pbkdf2,${pbkdf2}`,
    ]);
    const result = await run('users', 'import', file);
    expect(result.exitCode, result.stderr).toBe(0);
    for (const user of ['hash-bcrypt', 'hash-argon2i', 'hash-pbkdf2']) {
      expect((await passwordGrant(context.server.url, user, 'wrong-password')).status).toBe(400);
      const first = await passwordGrant(context.server.url, user, password);
      expect(first.status, `${user}: ${JSON.stringify(first.body)}`).toBe(200);
      // the first success rehashed it to argon2id; the password still works
      expect((await passwordGrant(context.server.url, user, password)).status).toBe(200);
    }
    const bcrypt = '$2b$06$HUamlSsH2RFdE4CVWaKize1Fo3R8ZYKKKYQkhpX8HkhI1Kkfhx3iG';
    const both = await context.admin.post('/api/rest/v2/users', {
      body: { userName: 'hash-both', password, passwordHash: bcrypt },
    });
    expect(both.status).toBe(400);
    const stored = await context.admin.get('/api/rest/v2/users/.filter', {
      query: { filter: 'userName eq "hash-bcrypt"' },
    });
    expect(JSON.stringify(stored.body)).not.toContain('$2b$');
    const invalid = writeCsv('bad-hash.csv', 'userName,passwordHash', ['hash-bad,$1$not$supported']);
    const refused = await run('users', 'import', invalid);
    expect(refused.exitCode).toBe(7);
    expect(refused.stderr).toContain('passwordHash: must be a PHC string');
  });

  it('exports the format it imports: export → import round-trips, --update-existing updates', async () => {
    const tags = await context.admin.post('/api/rest/v2/claimdefinitions', {
      body: { claimType: 'urn:example:tag', variableName: 'tag', countSpecification: 'Multiple' },
    });
    expect(tags.status, JSON.stringify(tags.body)).toBe(200);
    const header =
      'userName,email,displayName,organization,groups,active,phoneNumber,claim:locale,claim:urn:example:tag';
    const rows = [
      'rt-a,rt-a@example.com,"Round, Trip A",Root,Staff,true,+31612345678,en,',
      'rt-b,,,Root,,false,,nl,a;b\\;c',
      'rt-c,rt-c@example.com,C,Root,Staff,true,,,x',
    ];
    const source = writeCsv('rt.csv', header, rows);
    const imported = await run('users', 'import', source);
    expect(imported.exitCode, imported.stderr).toBe(0);
    const rtB = await context.admin.get('/api/rest/v2/users/.filter', { query: { filter: 'userName eq "rt-b"' } });
    const claims = (rtB.body as unknown as { claims: { type: string; value: string }[] }[])[0].claims;
    expect([...claims].sort((x, y) => `${x.type} ${x.value}`.localeCompare(`${y.type} ${y.value}`))).toEqual([
      { type: 'locale', value: 'nl' },
      { type: 'urn:example:tag', value: 'a' },
      { type: 'urn:example:tag', value: 'b;c' },
    ]);
    const exported = await run('users', 'export', '--filter', 'userName sw "rt-"');
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(exported.stdout).toBe(`${header}\n${rows.join('\n')}\n`);

    const ids = (
      (await context.admin.get('/api/rest/v2/users/.filter', { query: { filter: 'userName sw "rt-"' } }))
        .body as unknown as { id: string }[]
    ).map((u) => u.id);
    await context.admin.delete('/api/rest/v2/users/.batch', { body: ids });
    const again = writeCsv('rt-exported.csv', header, exported.stdout.trim().split('\n').slice(1));
    expect((await run('users', 'import', again)).exitCode).toBe(0);
    expect((await run('users', 'export', '--filter', 'userName sw "rt-"')).stdout).toBe(exported.stdout);

    const changed = writeCsv('rt-changed.csv', 'userName,displayName', ['rt-a,Changed A', 'rt-new,New']);
    const update = await run('users', 'import', changed, '--update-existing');
    expect(update.exitCode, update.stderr).toBe(0);
    expect(update.stderr).toContain('2 rows: 1 created, 1 updated');
    const json = await run('users', 'export', '--filter', 'userName eq "rt-a"', '-o', 'json');
    expect(JSON.parse(json.stdout)).toMatchObject([{ userName: 'rt-a', displayName: 'Changed A', groups: ['Staff'] }]);
  });
});
