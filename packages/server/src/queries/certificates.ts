import type { Certificate, CertificateStore } from '@idsvc/shared';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { ParsedCertificate } from '../certificates/parse.js';
import type { FilterSchema } from '../conventions/filter-sql.js';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { certificates } from '../db/schema/index.js';
import { arrayLiteral, rowsOf } from './bulk.js';

/** A certificate's listed fields, from whichever store holds it. */
export interface CertificateRow {
  thumbprint: string;
  subject: string;
  issuer: string;
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  storeName: CertificateStore;
}

export interface ListedCertificateRow extends CertificateRow {
  isInUse: boolean;
  total: number;
}

export const rowOf = (c: ParsedCertificate, storeName: CertificateStore): CertificateRow => ({
  thumbprint: c.thumbprint,
  subject: c.subject,
  issuer: c.issuer,
  serialNumber: c.serialNumber,
  validFrom: c.validFrom,
  validTo: c.validTo,
  storeName,
});

export const toCertificate = (row: CertificateRow, isInUse: boolean): Certificate => ({
  thumbprint: row.thumbprint,
  subject: row.subject,
  issuer: row.issuer,
  serialNumber: row.serialNumber,
  validFrom: row.validFrom.toISOString(),
  validTo: row.validTo.toISOString(),
  isInUse,
  storeName: row.storeName,
});

/**
 * A thumbprint as a connection lists it, compared the way idsvc stores thumbprints: upper case, without the `:`
 * or space separators that certificate tools print.
 */
const listedThumbprint = (value: SQL) => sql`upper(regexp_replace(${value}, '[[:space:]:]', '', 'g'))`;

/** True when a connection lists the thumbprint in its `certificates` (case-insensitively). */
export const inUseSql = (thumbprint: SQL) =>
  sql`exists (select 1 from connections c cross join lateral jsonb_array_elements_text(c.certificates) as t(value) where ${listedThumbprint(sql`t.value`)} = ${thumbprint})`;

const columns = {
  thumbprint: sql`u.thumbprint`,
  subject: sql`u.subject`,
  issuer: sql`u.issuer`,
  serialNumber: sql`u.serial_number`,
  validFrom: sql`u.valid_from`,
  validTo: sql`u.valid_to`,
  storeName: sql`u.store_name`,
};
const isInUse = inUseSql(columns.thumbprint);

const filter: FilterSchema = {
  attributes: {
    thumbprint: { sql: columns.thumbprint, type: 'string' },
    subject: { sql: columns.subject, type: 'string' },
    issuer: { sql: columns.issuer, type: 'string' },
    serialnumber: { sql: columns.serialNumber, type: 'string' },
    validfrom: { sql: columns.validFrom, type: 'datetime' },
    validto: { sql: columns.validTo, type: 'datetime' },
    storename: { sql: columns.storeName, type: 'string' },
    isinuse: { sql: isInUse, type: 'boolean' },
  },
};

export interface CertificateSource {
  /** Include the certificates of the `certificates` table (DatabaseStore). */
  database: boolean;
  /** Certificates of the other stores (already free of duplicates); those also in the table are left out. */
  others: readonly CertificateRow[];
}

/** The union of the table and the given rows, as one relation `u`: the rows travel as array parameters. */
function relation(source: CertificateSource): SQL {
  const parts: SQL[] = [];
  if (source.database) {
    parts.push(
      sql`select thumbprint, subject, issuer, serial_number, valid_from, valid_to, 'DatabaseStore'::text as store_name from ${certificates}`,
    );
  }
  if (source.others.length > 0) {
    const rows = source.others;
    const text = (pick: (r: CertificateRow) => string) => sql`${arrayLiteral(rows.map(pick), 'text')}::text[]`;
    const time = (pick: (r: CertificateRow) => Date) =>
      sql`${arrayLiteral(rows.map(pick), 'timestamptz')}::timestamptz[]`;
    const notInTable = source.database
      ? sql` where not exists (select 1 from ${certificates} d where d.thumbprint = m.thumbprint)`
      : sql``;
    parts.push(
      sql`select m.* from unnest(${text((r) => r.thumbprint)}, ${text((r) => r.subject)}, ${text((r) => r.issuer)}, ${text(
        (r) => r.serialNumber,
      )}, ${time((r) => r.validFrom)}, ${time((r) => r.validTo)}, ${text((r) => r.storeName)}) as m(thumbprint, subject, issuer, serial_number, valid_from, valid_to, store_name)${notInTable}`,
    );
  }
  if (parts.length === 0) {
    parts.push(
      sql`select null::text as thumbprint, null::text as subject, null::text as issuer, null::text as serial_number, null::timestamptz as valid_from, null::timestamptz as valid_to, null::text as store_name where false`,
    );
  }
  return sql`(${sql.join(parts, sql` union all `)}) u`;
}

interface RawRow {
  thumbprint: string;
  subject: string;
  issuer: string;
  serial_number: string;
  valid_from: Date | string;
  valid_to: Date | string;
  store_name: CertificateStore;
  is_in_use: boolean;
  total: number | string;
}

const toListed = (r: RawRow): ListedCertificateRow => ({
  thumbprint: r.thumbprint,
  subject: r.subject,
  issuer: r.issuer,
  serialNumber: r.serial_number,
  validFrom: new Date(r.valid_from),
  validTo: new Date(r.valid_to),
  storeName: r.store_name,
  isInUse: r.is_in_use === true,
  total: Number(r.total),
});

/** Lists certificates of the table and/or given rows with filter, sort and paging in SQL (the generic engine). */
export function certificateList(db: DbOrTx, source: CertificateSource): ListSource<ListedCertificateRow> {
  const from = relation(source);
  const whereOf = (where: SQL | undefined) => (where ? sql` where ${where}` : sql``);
  return {
    filter,
    sort: {
      thumbprint: columns.thumbprint,
      subject: sql`lower(${columns.subject})`,
      isinuse: isInUse,
      validto: columns.validTo,
    },
    tieBreaker: columns.thumbprint,
    select: async ({ where, orderBy, limit, offset }) => {
      const result = await db.execute(
        sql`select u.*, ${isInUse} as is_in_use, count(*) over() as total from ${from}${whereOf(where)} order by ${sql.join(
          orderBy,
          sql`, `,
        )} limit ${limit} offset ${offset}`,
      );
      return rowsOf<RawRow>(result).map(toListed);
    },
    count: async (where) => {
      const result = await db.execute(sql`select count(*) as n from ${from}${whereOf(where)}`);
      return Number(rowsOf<{ n: number | string }>(result)[0].n);
    },
  };
}

/** The stored certificates among the given (normalised) thumbprints. */
export async function findStoredCertificates(db: DbOrTx, thumbprints: readonly string[]): Promise<CertificateRow[]> {
  if (thumbprints.length === 0) return [];
  const rows = await db
    .select({
      thumbprint: certificates.thumbprint,
      subject: certificates.subject,
      issuer: certificates.issuer,
      serialNumber: certificates.serialNumber,
      validFrom: certificates.validFrom,
      validTo: certificates.validTo,
    })
    .from(certificates)
    .where(inArray(certificates.thumbprint, [...thumbprints]));
  return rows.map((r) => ({ ...r, storeName: 'DatabaseStore' as const }));
}

export async function insertCertificates(db: DbOrTx, list: readonly ParsedCertificate[]): Promise<void> {
  if (list.length === 0) return;
  await db.insert(certificates).values(
    list.map((c) => ({
      thumbprint: c.thumbprint,
      der: Buffer.from(c.der),
      subject: c.subject,
      issuer: c.issuer,
      serialNumber: c.serialNumber,
      validFrom: c.validFrom,
      validTo: c.validTo,
    })),
  );
}

export async function deleteCertificates(db: DbOrTx, thumbprints: readonly string[]): Promise<void> {
  if (thumbprints.length === 0) return;
  await db.delete(certificates).where(inArray(certificates.thumbprint, [...thumbprints]));
}

/** Thumbprint → names of the connections that list it, for the given (normalised) thumbprints. */
export async function connectionsUsing(db: DbOrTx, thumbprints: readonly string[]): Promise<Map<string, string[]>> {
  const used = new Map<string, string[]>();
  if (thumbprints.length === 0) return used;
  const listed = listedThumbprint(sql`t.value`);
  const result = await db.execute(
    sql`select distinct ${listed} as thumbprint, c.name from connections c cross join lateral jsonb_array_elements_text(c.certificates) as t(value) where ${listed} = any(${arrayLiteral(
      [...thumbprints],
      'text',
    )}::text[]) order by c.name`,
  );
  for (const row of rowsOf<{ thumbprint: string; name: string }>(result)) {
    used.set(row.thumbprint, [...(used.get(row.thumbprint) ?? []), row.name]);
  }
  return used;
}
