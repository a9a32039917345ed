import type { ClaimDefinition, ClaimDefinitionKind, CountSpecification } from '@idsvc/shared';
import { type AnyColumn, and, eq, getTableColumns, ne, type SQL, sql } from 'drizzle-orm';
import type { FilterSchema } from '../conventions/filter-sql.js';
import type { ListSource } from '../conventions/list.js';
import type { DbOrTx } from '../db/client.js';
import { claimDefinitions, claimSets, userClaims } from '../db/schema/index.js';
import { pagedQueries } from './paged-queries.js';
import { lower, nameIn, nameIs } from './sql.js';

export type ClaimDefinitionRow = typeof claimDefinitions.$inferSelect;

/** Everything of a claim definition but its id and claimType: what a create or update stores. */
export interface ClaimDefinitionValues {
  kind: ClaimDefinitionKind;
  friendlyName: string | null;
  variableName: string;
  description: string | null;
  avoidIssue: boolean;
  avoidUpsize: boolean;
  countSpecification: CountSpecification;
  claimValueSpace: string | null;
  showAsColumnOnUserlist: boolean;
  sensitive: boolean;
  userEditable: boolean;
  restrictedSubOrganizationView: boolean;
  allowedValues: string[];
  groupNames: string[];
}

/** The resource; `allowedValues` only for the Optional kind, `groupNames` only for the Group kind. */
export const toClaimDefinition = (row: ClaimDefinitionRow): ClaimDefinition => ({
  id: row.id,
  claimType: row.claimType,
  kind: row.kind as ClaimDefinitionKind,
  friendlyName: row.friendlyName,
  variableName: row.variableName ?? '',
  description: row.description,
  avoidIssue: row.avoidIssue,
  avoidUpsize: row.avoidUpsize,
  countSpecification: row.countSpecification as CountSpecification,
  claimValueSpace: row.claimValueSpace,
  showAsColumnOnUserlist: row.showAsColumnOnUserlist,
  sensitive: row.sensitive,
  userEditable: row.userEditable,
  restrictedSubOrganizationView: row.restrictedSubOrganizationView,
  ...(row.kind === 'OptionalClaimDefinition' ? { allowedValues: row.allowedValues } : {}),
  ...(row.kind === 'GroupClaimDefinition' ? { groupNames: row.groupNames } : {}),
});

const t = claimDefinitions;
const text = (col: SQL | AnyColumn) => ({ sql: sql`${col}`, type: 'string' as const });
const bool = (col: AnyColumn) => ({ sql: sql`${col}`, type: 'boolean' as const });
const jsonValues = (col: AnyColumn) => ({
  exists: (condition: SQL) =>
    sql`exists (select 1 from jsonb_array_elements_text(${col}) as v(value) where ${condition})`,
  sub: { value: { sql: sql`v.value`, type: 'string' as const } },
  primary: 'value',
});

const filter: FilterSchema = {
  attributes: {
    id: text(sql`${t.id}::text`),
    claimtype: text(t.claimType),
    kind: text(t.kind),
    friendlyname: text(t.friendlyName),
    variablename: text(t.variableName),
    description: text(t.description),
    avoidissue: bool(t.avoidIssue),
    avoidupsize: bool(t.avoidUpsize),
    countspecification: text(t.countSpecification),
    claimvaluespace: text(t.claimValueSpace),
    showascolumnonuserlist: bool(t.showAsColumnOnUserlist),
    sensitive: bool(t.sensitive),
    usereditable: bool(t.userEditable),
    restrictedsuborganizationview: bool(t.restrictedSubOrganizationView),
  },
  multiValued: { allowedvalues: jsonValues(t.allowedValues), groupnames: jsonValues(t.groupNames) },
};

export function claimDefinitionList(db: DbOrTx): ListSource<ClaimDefinitionRow & { total: number }> {
  return {
    filter,
    sort: {
      claimtype: lower(t.claimType),
      friendlyname: lower(t.friendlyName),
      avoidissue: t.avoidIssue,
      avoidupsize: t.avoidUpsize,
      countspecification: t.countSpecification,
      claimvaluespace: lower(t.claimValueSpace),
      showascolumnonuserlist: t.showAsColumnOnUserlist,
      sensitive: t.sensitive,
      usereditable: t.userEditable,
      restrictedsuborganizationview: t.restrictedSubOrganizationView,
    },
    tieBreaker: t.id,
    ...pagedQueries<ClaimDefinitionRow>((fields) => db.select(fields).from(t).$dynamic(), getTableColumns(t)),
  };
}

export async function findClaimDefinition(db: DbOrTx, claimType: string): Promise<ClaimDefinitionRow | undefined> {
  return (await db.select().from(t).where(nameIs(t.claimType, claimType)).limit(1))[0];
}

/** `id` must be in GUID form. */
export async function findClaimDefinitionById(db: DbOrTx, id: string): Promise<ClaimDefinitionRow | undefined> {
  return (await db.select().from(t).where(eq(t.id, id)).limit(1))[0];
}

export async function findClaimDefinitions(db: DbOrTx, claimTypes: readonly string[]): Promise<ClaimDefinitionRow[]> {
  if (claimTypes.length === 0) return [];
  return db.select().from(t).where(nameIn(t.claimType, claimTypes));
}

/** The definition (other than `exceptId`) whose variable name matches, case-insensitively. */
export async function findByVariableName(
  db: DbOrTx,
  variableName: string,
  exceptId?: string,
): Promise<ClaimDefinitionRow | undefined> {
  const same = nameIs(t.variableName, variableName);
  return (
    await db
      .select()
      .from(t)
      .where(exceptId ? and(same, ne(t.id, exceptId)) : same)
      .limit(1)
  )[0];
}

/** Variable names (lower case) that start with `prefix`, case-insensitively. */
export async function variableNamesStartingWith(db: DbOrTx, prefix: string): Promise<Set<string>> {
  const pattern = `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const rows = await db
    .select({ name: sql<string>`lower(${t.variableName})` })
    .from(t)
    .where(sql`lower(${t.variableName}) like lower(${pattern})`);
  return new Set(rows.map((r) => r.name));
}

export async function insertClaimDefinition(
  db: DbOrTx,
  claimType: string,
  values: ClaimDefinitionValues,
  id?: string,
): Promise<ClaimDefinitionRow> {
  const [row] = await db
    .insert(t)
    .values({ ...(id ? { id } : {}), claimType, ...values })
    .returning();
  return row;
}

export async function updateClaimDefinition(
  db: DbOrTx,
  id: string,
  values: ClaimDefinitionValues,
): Promise<ClaimDefinitionRow> {
  const [row] = await db
    .update(t)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(t.id, id))
    .returning();
  return row;
}

/** Why a definition may not be deleted: users holding its claims, or claim sets listing it. */
export async function claimDefinitionUse(db: DbOrTx, row: ClaimDefinitionRow): Promise<string | undefined> {
  const [holders] = await db
    .select({ n: sql<number>`count(distinct ${userClaims.userId})`.mapWith(Number) })
    .from(userClaims)
    .where(nameIs(userClaims.type, row.claimType));
  if (holders.n > 0) return `${holders.n} user(s) hold claims of type ${row.claimType}`;
  const listed = sql`exists (select 1 from jsonb_array_elements_text(${claimSets.claimTypes}) c where lower(c) = lower(${row.claimType}))`;
  const sets = await db.select({ name: claimSets.name }).from(claimSets).where(listed).orderBy(lower(claimSets.name));
  if (sets.length > 0) return `the claim set(s) ${sets.map((s) => s.name).join(', ')} list ${row.claimType}`;
  return undefined;
}

export async function deleteClaimDefinition(db: DbOrTx, id: string): Promise<void> {
  await db.delete(t).where(eq(t.id, id));
}
