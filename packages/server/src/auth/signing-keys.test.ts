import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../crypto/secret-box.js';
import { type Database, openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { signingKeys } from '../db/schema/index.js';
import { SigningKeys } from './signing-keys.js';

const issuer = 'http://127.0.0.1:0/runtime/oauth2';
let dataDir: string;
let database: Database;
const box = new SecretBox(randomBytes(32));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'idsvc-keys-'));
  database = await openDatabase({ dataDir });
  await migrate(database);
});

afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SigningKeys', () => {
  it('creates exactly one key when two instances load an empty database at once', async () => {
    const [a, b] = await Promise.all([SigningKeys.load(database.db, box), SigningKeys.load(database.db, box)]);
    const rows = await database.db.select().from(signingKeys);
    expect(rows).toHaveLength(1);
    expect((await a.jwks()).keys.map((k) => k.kid)).toEqual([rows[0].kid]);
    expect((await b.jwks()).keys.map((k) => k.kid)).toEqual([rows[0].kid]);
  });

  it('keeps the private key sealed in the table', async () => {
    const [row] = await database.db.select().from(signingKeys);
    expect(row.alg).toBe('RS256');
    expect(row.privateKeyEnc.startsWith('v1.')).toBe(true);
    expect(JSON.parse(box.open(row.privateKeyEnc)).d).toEqual(expect.any(String));
    expect(row.publicJwk).not.toHaveProperty('d');
  });

  it('signs a token that another instance over the same database verifies', async () => {
    const a = await SigningKeys.load(database.db, box);
    const b = await SigningKeys.load(database.db, box);
    const token = await a.sign({ scope: 'x' }, { issuer, subject: 'u1', audience: 'c1', expiresInSeconds: 60 });
    const payload = await b.verify(token, issuer);
    expect(payload).toMatchObject({ iss: issuer, sub: 'u1', aud: 'c1', scope: 'x' });
    expect(payload.exp! - payload.iat!).toBe(60);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await database.db.select().from(signingKeys);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', kid: row.kid, typ: 'JWT' });
  });

  it('publishes public keys only', async () => {
    const keys = await SigningKeys.load(database.db, box);
    const { keys: published } = await keys.jwks();
    expect(published).toHaveLength(1);
    expect(Object.keys(published[0]).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect(published[0]).toMatchObject({ alg: 'RS256', kty: 'RSA', use: 'sig' });
  });

  it('rejects an expired token, a wrong issuer and a token signed by a foreign key', async () => {
    const keys = await SigningKeys.load(database.db, box);
    const expired = await keys.sign({}, { issuer, expiresInSeconds: -10 });
    await expect(keys.verify(expired, issuer)).rejects.toThrow(/exp/);
    const good = await keys.sign({}, { issuer, expiresInSeconds: 60 });
    await expect(keys.verify(good, 'http://elsewhere/runtime/oauth2')).rejects.toThrow(/iss/);
    const foreign = await generateKeyPair('RS256');
    const [{ kid }] = (await keys.jwks()).keys;
    for (const header of [
      { alg: 'RS256', kid },
      { alg: 'RS256', kid: 'unknown' },
    ]) {
      const forged = await new SignJWT({})
        .setProtectedHeader(header)
        .setIssuer(issuer)
        .setExpirationTime('1m')
        .sign(foreign.privateKey);
      await expect(keys.verify(forged, issuer)).rejects.toThrow();
    }
  });

  it('rotates: publishes the new key first, then signs with it while the old one still verifies', async () => {
    let now = Date.now();
    const clock = () => now;
    const a = await SigningKeys.load(database.db, box, { now: clock });
    const b = await SigningKeys.load(database.db, box, {
      now: clock,
      refreshIntervalMs: 1e12,
      unknownKidReloadIntervalMs: 0,
    });
    const before = await a.sign({}, { issuer, expiresInSeconds: 3600 });
    const oldKid = decodeProtectedHeader(before).kid;
    const newKid = await a.rotate({ publishDelaySeconds: 600, retiredKeyLifetimeSeconds: 3600 });
    expect((await a.jwks()).keys.map((k) => k.kid)).toEqual([newKid, oldKid]);
    expect(decodeProtectedHeader(await a.sign({}, { issuer, expiresInSeconds: 60 })).kid).toBe(oldKid);

    now += 601_000;
    const after = await a.sign({}, { issuer, expiresInSeconds: 60 });
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    // b has not reloaded since before the rotation: the unknown kid makes it read the keys again.
    await expect(b.verify(after, issuer)).resolves.toMatchObject({ iss: issuer });
    await expect(b.verify(before, issuer)).resolves.toMatchObject({ iss: issuer });

    now += 3600_000;
    const c = await SigningKeys.load(database.db, box, { now: clock });
    expect((await c.jwks()).keys.map((k) => k.kid)).toEqual([newKid]);
  });
});
