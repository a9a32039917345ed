import { gt, isNull, or, sql } from 'drizzle-orm';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
} from 'jose';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db, DbOrTx } from '../db/client.js';
import { SCHEMA_LOCK } from '../db/migrate.js';
import { signingKeys } from '../db/schema/index.js';
import { type JwtOptions, signJwt } from './jwt.js';

const ALG = 'RS256';
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
}

export interface RotateOptions {
  /** Time between publishing the new key in the JWKS and signing with it (default one hour). */
  publishDelaySeconds?: number;
  /** How long the retired key stays published after the new one activates (default one day). */
  retiredKeyLifetimeSeconds?: number;
}

/** RS256 token signing keys kept in the database (private halves sealed), shared by every instance. */
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
  readonly #privateKeys = new Map<string, Promise<CryptoKey>>();

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
    if (!keys.#signingRow()) {
      const created = await newKeyRow(box, new Date(keys.#now()));
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${SIGNING_KEYS_LOCK})`);
        const rows = await readRows(tx, keys.#now());
        if (!pickSigningRow(rows, keys.#now())) await tx.insert(signingKeys).values(created);
      });
      await keys.#reload();
    }
    return keys;
  }

  /** Signs a JWT with the active key; sets kid, iss, sub, aud, iat, exp and jti. */
  async sign(payload: JWTPayload, options: JwtOptions): Promise<string> {
    await this.#refreshIfStale();
    let row = this.#signingRow();
    if (!row) {
      await this.#reload();
      row = this.#signingRow();
    }
    if (!row) throw new Error('no active signing key');
    const key = await this.#privateKey(row);
    return signJwt(payload, options, key, { alg: ALG, kid: row.kid });
  }

  /** Verifies signature, expiry and issuer; throws when the token does not verify. */
  async verify(token: string, issuer: string): Promise<JWTPayload> {
    await this.#refreshIfStale();
    const { kid } = decodeProtectedHeader(token);
    if (typeof kid === 'string' && !this.#rows.some((r) => r.kid === kid)) await this.#reloadForUnknownKid();
    const { payload } = await jwtVerify(token, this.#jwks, { issuer, algorithms: [ALG] });
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
    const now = this.#now();
    const activatesAt = new Date(now + (options.publishDelaySeconds ?? 3600) * 1000);
    const expiresAt = new Date(activatesAt.getTime() + (options.retiredKeyLifetimeSeconds ?? 86_400) * 1000);
    const created = await newKeyRow(this.#box, activatesAt);
    await this.#db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SIGNING_KEYS_LOCK})`);
      await tx
        .update(signingKeys)
        .set({ retiresAt: activatesAt, expiresAt })
        .where(or(isNull(signingKeys.retiresAt), gt(signingKeys.retiresAt, activatesAt)));
      await tx.insert(signingKeys).values(created);
    });
    await this.#reload();
    return created.kid;
  }

  #signingRow(): KeyRow | undefined {
    return pickSigningRow(this.#rows, this.#now());
  }

  #privateKey(row: KeyRow): Promise<CryptoKey> {
    let key = this.#privateKeys.get(row.kid);
    if (!key) {
      key = importJWK(JSON.parse(this.#box.open(row.privateKeyEnc)) as JWK, ALG) as Promise<CryptoKey>;
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

/** The key that signs at `now`: activated, not retired, the most recently activated. */
function pickSigningRow(rows: KeyRow[], now: number): KeyRow | undefined {
  return rows.find((r) => r.activatesAt.getTime() <= now && (!r.retiresAt || r.retiresAt.getTime() > now));
}

function publicJwkOf(row: KeyRow): JWK {
  return { ...(row.publicJwk as JWK), kid: row.kid, alg: row.alg, use: 'sig' };
}

async function newKeyRow(box: SecretBox, activatesAt: Date): Promise<typeof signingKeys.$inferInsert> {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return {
    kid,
    alg: ALG,
    publicJwk: publicJwk as Record<string, unknown>,
    privateKeyEnc: box.seal(JSON.stringify(privateJwk)),
    activatesAt,
  };
}
