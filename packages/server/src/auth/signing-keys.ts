import { createPrivateKey, type KeyObject, type JsonWebKey as NodeJwk } from 'node:crypto';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  type JWTVerifyOptions,
  jwtVerify,
} from 'jose';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db, DbOrTx } from '../db/client.js';
import { SCHEMA_LOCK } from '../db/migrate.js';
import { signingKeys } from '../db/schema/index.js';
import { type JwtOptions, signJwt } from './jwt.js';

/** The asymmetric algorithms the server signs with; each has its own keys. RS256 is the default. */
export const keyAlgorithms = ['RS256', 'ES256'] as const;
export type KeyAlgorithm = (typeof keyAlgorithms)[number];
const ALG: KeyAlgorithm = 'RS256';
/** Advisory lock id that serialises key creation and rotation across instances sharing one database. */
export const SIGNING_KEYS_LOCK = SCHEMA_LOCK + 2;

type KeyRow = typeof signingKeys.$inferSelect;

export interface SigningKeysOptions {
  /** How long the in-memory copy of the keys is trusted before it is read again. */
  refreshIntervalMs?: number;
  /** Least time between two reloads caused by tokens naming an unknown kid. */
  unknownKidReloadIntervalMs?: number;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
  /** The key sets made at load when missing, so that they are published before they sign (default RS256 only). */
  algorithms?: readonly KeyAlgorithm[];
}

export interface RotateOptions {
  /** Time between publishing the new key in the JWKS and signing with it (default one hour). */
  publishDelaySeconds?: number;
  /** How long the retired key stays published after the new one activates (default one day). */
  retiredKeyLifetimeSeconds?: number;
  /** The key set to rotate (default RS256). */
  alg?: KeyAlgorithm;
}

/** Token signing keys (RS256, and ES256 beside it) kept in the database (private halves sealed), shared by every instance. */
export class SigningKeys {
  readonly #db: Db;
  readonly #box: SecretBox;
  readonly #refreshIntervalMs: number;
  readonly #unknownKidReloadIntervalMs: number;
  readonly #now: () => number;
  #rows: KeyRow[] = [];
  #jwks: ReturnType<typeof createLocalJWKSet> = createLocalJWKSet({ keys: [] });
  #loadedAt = 0;
  #unknownKidReloadAt = 0;
  #reloading: Promise<void> | undefined;
  readonly #privateKeys = new Map<string, KeyObject>();

  private constructor(db: Db, box: SecretBox, options: SigningKeysOptions) {
    this.#db = db;
    this.#box = box;
    this.#refreshIntervalMs = options.refreshIntervalMs ?? 60_000;
    this.#unknownKidReloadIntervalMs = options.unknownKidReloadIntervalMs ?? 2_000;
    this.#now = options.now ?? Date.now;
  }

  /** Reads the keys, creating the first one when there is no key to sign with. */
  static async load(db: Db, box: SecretBox, options: SigningKeysOptions = {}): Promise<SigningKeys> {
    const keys = new SigningKeys(db, box, options);
    await keys.#reload();
    for (const alg of options.algorithms ?? [ALG]) await keys.#ensureKey(alg);
    return keys;
  }

  /** Creates a key of the algorithm when none signs now (once across instances). */
  async #ensureKey(alg: KeyAlgorithm): Promise<void> {
    if (this.#signingRow(alg)) return;
    const created = await newKeyRow(this.#box, new Date(this.#now()), alg);
    await this.#db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SIGNING_KEYS_LOCK})`);
      const rows = await readRows(tx, this.#now());
      if (!pickSigningRow(rows, this.#now(), alg)) await tx.insert(signingKeys).values(created);
    });
    await this.#reload();
  }

  /**
   * Signs a JWT with the active key of the algorithm; sets kid, iss, sub, aud, iat, exp and jti. `typ` is the
   * header's type (`JWT` when not given).
   */
  sign(payload: JWTPayload, options: JwtOptions, alg: KeyAlgorithm = ALG, typ?: string): Promise<string> {
    // The usual case straight away, without an async frame: fresh keys and one that signs now.
    const row = this.#now() - this.#loadedAt < this.#refreshIntervalMs ? this.#signingRow(alg) : undefined;
    if (row) return signJwt(payload, options, this.#privateKey(row), { alg, kid: row.kid, typ });
    return this.#signAfterReload(payload, options, alg, typ);
  }

  async #signAfterReload(
    payload: JWTPayload,
    options: JwtOptions,
    alg: KeyAlgorithm,
    typ: string | undefined,
  ): Promise<string> {
    if (this.#now() - this.#loadedAt >= this.#refreshIntervalMs) await this.#reload();
    let row = this.#signingRow(alg);
    if (!row) {
      await this.#reload();
      row = this.#signingRow(alg);
    }
    if (!row) {
      await this.#ensureKey(alg);
      row = this.#signingRow(alg);
    }
    if (!row) throw new Error('no active signing key');
    const key = this.#privateKey(row);
    return signJwt(payload, options, key, { alg, kid: row.kid, typ });
  }

  /** Verifies signature, expiry and issuer (and what `options` adds); throws when the token does not verify. */
  async verify(token: string, issuer: string, options: JWTVerifyOptions = {}): Promise<JWTPayload> {
    await this.#refreshIfStale();
    const { kid } = decodeProtectedHeader(token);
    if (typeof kid === 'string' && !this.#rows.some((r) => r.kid === kid)) await this.#reloadForUnknownKid();
    const { payload } = await jwtVerify(token, this.#jwks, { ...options, issuer, algorithms: [...keyAlgorithms] });
    return payload;
  }

  /** The published public keys: active, about to activate, or retired but not yet expired. */
  async jwks(): Promise<{ keys: JWK[] }> {
    await this.#refreshIfStale();
    return { keys: this.#rows.map(publicJwkOf) };
  }

  /**
   * Adds a key that starts signing after `publishDelaySeconds` and retires the keys signing now at that instant;
   * they stay published for `retiredKeyLifetimeSeconds` more so tokens they signed still verify. Returns the new kid.
   */
  async rotate(options: RotateOptions = {}): Promise<string> {
    return (await this.#rotate(options, () => true)) as string;
  }

  /**
   * Rotates like `rotate` when the key of the algorithm signing now is older than `maxAgeSeconds` and no newer key
   * waits to take over; decided under the lock, so one instance of several sharing the database rotates. Returns
   * the new kid, or undefined when nothing was due.
   */
  rotateIfDue(maxAgeSeconds: number, options: RotateOptions = {}): Promise<string | undefined> {
    const alg = options.alg ?? ALG;
    return this.#rotate(options, (rows, now) => {
      const signing = pickSigningRow(rows, now, alg);
      const waiting = rows.some((r) => r.alg === alg && r.activatesAt.getTime() > now);
      return !!signing && !waiting && now - signing.activatesAt.getTime() >= maxAgeSeconds * 1000;
    });
  }

  async #rotate(options: RotateOptions, due: (rows: KeyRow[], now: number) => boolean): Promise<string | undefined> {
    const now = this.#now();
    const activatesAt = new Date(now + (options.publishDelaySeconds ?? 3600) * 1000);
    const expiresAt = new Date(activatesAt.getTime() + (options.retiredKeyLifetimeSeconds ?? 86_400) * 1000);
    const alg = options.alg ?? ALG;
    const created = await newKeyRow(this.#box, activatesAt, alg);
    const rotated = await this.#db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SIGNING_KEYS_LOCK})`);
      if (!due(await readRows(tx, now), now)) return false;
      await tx
        .update(signingKeys)
        .set({ retiresAt: activatesAt, expiresAt })
        .where(
          and(eq(signingKeys.alg, alg), or(isNull(signingKeys.retiresAt), gt(signingKeys.retiresAt, activatesAt))),
        );
      await tx.insert(signingKeys).values(created);
      return true;
    });
    await this.#reload();
    return rotated ? created.kid : undefined;
  }

  #signingRow(alg: KeyAlgorithm = ALG): KeyRow | undefined {
    return pickSigningRow(this.#rows, this.#now(), alg);
  }

  #privateKey(row: KeyRow): KeyObject {
    let key = this.#privateKeys.get(row.kid);
    if (!key) {
      key = createPrivateKey({ key: JSON.parse(this.#box.open(row.privateKeyEnc)) as NodeJwk, format: 'jwk' });
      this.#privateKeys.set(row.kid, key);
    }
    return key;
  }

  async #refreshIfStale(): Promise<void> {
    if (this.#now() - this.#loadedAt >= this.#refreshIntervalMs) await this.#reload();
  }

  async #reloadForUnknownKid(): Promise<void> {
    const now = this.#now();
    if (now - this.#unknownKidReloadAt < this.#unknownKidReloadIntervalMs) return;
    this.#unknownKidReloadAt = now;
    await this.#reload();
  }

  /** Reads the keys again; concurrent callers share one read. */
  #reload(): Promise<void> {
    this.#reloading ??= (async () => {
      try {
        const rows = await readRows(this.#db, this.#now());
        this.#rows = rows;
        this.#jwks = createLocalJWKSet({ keys: rows.map(publicJwkOf) });
        this.#loadedAt = this.#now();
        for (const kid of this.#privateKeys.keys()) {
          if (!rows.some((r) => r.kid === kid)) this.#privateKeys.delete(kid);
        }
      } finally {
        this.#reloading = undefined;
      }
    })();
    return this.#reloading;
  }
}

/** Keys not yet expired, newest activation first. */
function readRows(db: DbOrTx, now: number): Promise<KeyRow[]> {
  return db
    .select()
    .from(signingKeys)
    .where(or(isNull(signingKeys.expiresAt), gt(signingKeys.expiresAt, new Date(now))))
    .orderBy(sql`${signingKeys.activatesAt} desc`);
}

/** The key of the algorithm that signs at `now`: activated, not retired, the most recently activated. */
function pickSigningRow(rows: KeyRow[], now: number, alg: KeyAlgorithm): KeyRow | undefined {
  return rows.find(
    (r) => r.alg === alg && r.activatesAt.getTime() <= now && (!r.retiresAt || r.retiresAt.getTime() > now),
  );
}

function publicJwkOf(row: KeyRow): JWK {
  return { ...(row.publicJwk as JWK), kid: row.kid, alg: row.alg, use: 'sig' };
}

async function newKeyRow(
  box: SecretBox,
  activatesAt: Date,
  alg: KeyAlgorithm,
): Promise<typeof signingKeys.$inferInsert> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return {
    kid,
    alg,
    publicJwk: publicJwk as Record<string, unknown>,
    privateKeyEnc: box.seal(JSON.stringify(privateJwk)),
    activatesAt,
  };
}
