import type { ClaimValue } from '@idsvc/shared';
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { claimDefinitions, organizations } from '../../db/schema/index.js';
import { badRequest, conflict } from '../../http/api-error.js';
import { findGroups } from '../../queries/groups.js';
import { nameIn } from '../../queries/sql.js';

export interface UserRefs {
  index: number;
  organization?: string;
  groups?: string[];
  claims?: ClaimValue[];
}

type Named = { id: string; name: string };

/** Organizations, groups and claim definitions named by a batch, looked up in three queries. */
export interface ResolvedRefs {
  organization(name: string): Named;
  groups(names: string[]): Named[];
}

const key = (s: string) => s.toLowerCase();

/**
 * Resolves every reference of a batch at once; an unknown organization, group or claim type, a second value of a
 * single-valued claim, or a value outside an optional claim's allowed values is a 400 naming the item.
 */
export async function resolveReferences(db: DbOrTx, items: UserRefs[]): Promise<ResolvedRefs> {
  const orgNames = [...new Set(items.flatMap((i) => (i.organization ? [i.organization] : [])).concat('Root'))];
  const groupNames = [...new Set(items.flatMap((i) => i.groups ?? []))];
  const claimTypes = [...new Set(items.flatMap((i) => (i.claims ?? []).map((c) => c.type)))];
  const [orgRows, groupRows, defRows] = await Promise.all([
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(nameIn(organizations.name, orgNames)),
    findGroups(db, groupNames),
    claimTypes.length
      ? db
          .select({
            claimType: claimDefinitions.claimType,
            kind: claimDefinitions.kind,
            countSpecification: claimDefinitions.countSpecification,
            allowedValues: claimDefinitions.allowedValues,
          })
          .from(claimDefinitions)
          .where(inArray(claimDefinitions.claimType, claimTypes))
      : [],
  ]);
  const orgs = new Map(orgRows.map((r) => [key(r.name), r]));
  const groupMap = new Map(groupRows.map((r) => [key(r.name), { id: r.id, name: r.name }]));
  const defs = new Map(defRows.map((d) => [d.claimType, d]));

  const problems: { index: number; field: string; message: string }[] = [];
  for (const item of items) {
    if (item.organization && !orgs.has(key(item.organization))) {
      problems.push({
        index: item.index,
        field: 'organization',
        message: `organization ${item.organization} does not exist`,
      });
    }
    for (const g of item.groups ?? []) {
      if (!groupMap.has(key(g)))
        problems.push({ index: item.index, field: 'groups', message: `group ${g} does not exist` });
    }
    const seen = new Set<string>();
    for (const c of item.claims ?? []) {
      const def = defs.get(c.type);
      if (!def) {
        problems.push({ index: item.index, field: 'claims', message: `claim type ${c.type} has no claim definition` });
        continue;
      }
      if (def.countSpecification === 'Single' && seen.has(c.type)) {
        problems.push({
          index: item.index,
          field: 'claims',
          message: `claim type ${c.type} allows one value per user`,
        });
      }
      if (def.kind === 'OptionalClaimDefinition' && def.allowedValues.length && !def.allowedValues.includes(c.value)) {
        problems.push({
          index: item.index,
          field: 'claims',
          message: `${c.value} is not an allowed value of ${c.type}`,
        });
      }
      seen.add(c.type);
    }
  }
  if (problems.length) throw badRequest(problems[0].message, problems);
  return {
    organization: (name) => orgs.get(key(name))!,
    groups: (names) => [...new Map(names.map((n) => [key(n), groupMap.get(key(n))!])).values()],
  };
}

/** Items of one batch that share a userName, e-mail or id: a 409 naming them. */
export function refuseDuplicates(items: { index: number; id?: string; userName?: string; email?: string | null }[]) {
  const problems: { index: number; field: string; value: string; message: string }[] = [];
  for (const field of ['id', 'userName', 'email'] as const) {
    const first = new Map<string, number>();
    for (const item of items) {
      const value = item[field];
      if (!value) continue;
      const k = key(value);
      const earlier = first.get(k);
      if (earlier === undefined) first.set(k, item.index);
      else
        problems.push({
          index: item.index,
          field,
          value,
          message: `${field} ${value} is also given by item ${earlier}`,
        });
    }
  }
  if (problems.length) throw conflict(`the batch holds duplicates: ${problems[0].message}`, problems);
}
