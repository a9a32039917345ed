import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificate, type TestCertificate } from '../test-support/certificates.js';
import { parseDer } from './parse.js';
import { FolderConflictError, FolderMissingError, FolderStore, parseTrustBundles, trustedRoots } from './stores.js';

let dir: string;
let a: TestCertificate;
let b: TestCertificate;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idsvc-certstore-'));
  a = await makeCertificate();
  b = await makeCertificate();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('FolderStore', () => {
  it('is empty while its folder does not exist, and creates the folder on the first write', async () => {
    const store = new FolderStore(join(dir, 'fresh', 'CurrentUser'));
    expect(await store.entries()).toEqual([]);
    await store.add([parseDer(a.der)]);
    expect(await readdir(store.dir)).toEqual([`${a.thumbprint}.cer`]);
  });

  it('reads files dropped in by hand by their content (PEM too), skipping files that are not certificates', async () => {
    const store = new FolderStore(join(dir, 'by-hand'));
    await store.add([parseDer(a.der)]);
    await writeFile(join(store.dir, 'partner.pem'), b.pem);
    await writeFile(join(store.dir, 'copy-of-a.crt'), a.der);
    await writeFile(join(store.dir, 'notes.cer'), 'not a certificate');
    await writeFile(join(store.dir, 'readme.txt'), b.pem);
    const entries = await store.entries();
    expect(entries.map((e) => [e.cert.thumbprint, e.files.map((f) => f.slice(store.dir.length + 1))])).toEqual([
      [a.thumbprint, [`${a.thumbprint}.cer`, 'copy-of-a.crt']],
      [b.thumbprint, ['partner.pem']],
    ]);
  });

  it('refuses to add over an existing file and leaves nothing of the batch behind', async () => {
    const store = new FolderStore(join(dir, 'conflict'));
    await store.add([parseDer(b.der)]);
    await expect(store.add([parseDer(a.der), parseDer(b.der)])).rejects.toBeInstanceOf(FolderConflictError);
    expect(await readdir(store.dir)).toEqual([`${b.thumbprint}.cer`]);
  });

  it('removes files on commit, and puts them back on undo', async () => {
    const store = new FolderStore(join(dir, 'remove'));
    await store.add([parseDer(a.der), parseDer(b.der)]);
    const undone = await store.remove(await store.entries());
    expect(await store.entries()).toEqual([]);
    await undone.undo();
    expect((await store.entries()).map((e) => e.cert.thumbprint).sort()).toEqual([a.thumbprint, b.thumbprint].sort());
    const [first] = await store.entries();
    const done = await store.remove([first]);
    await done.commit();
    expect(await readdir(store.dir)).toHaveLength(1);
    await expect(store.remove([first])).rejects.toBeInstanceOf(FolderMissingError);
  });
});

describe('LocalMachine roots', () => {
  it('parses each distinct certificate of the bundles once', async () => {
    const parsed = await parseTrustBundles([`${a.pem}\n${b.pem}`, a.pem]);
    expect(parsed.map((c) => c.thumbprint)).toEqual([a.thumbprint, b.thumbprint]);
  });

  it("holds Node's bundled roots plus a readable system bundle, read once", async () => {
    const bundle = join(dir, 'bundle.crt');
    await writeFile(bundle, a.pem);
    const load = trustedRoots([bundle, join(dir, 'missing.crt')]);
    const roots = await load();
    expect(roots.length).toBe(rootCertificates.length + 1);
    expect(roots.at(-1)?.thumbprint).toBe(a.thumbprint);
    expect(await load()).toBe(roots);
  });
});
