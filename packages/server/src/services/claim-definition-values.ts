import type { ClaimDefinitionInput } from '@idsvc/shared';
import type { DbOrTx } from '../db/client.js';
import { badRequest, conflict } from '../http/api-error.js';
import * as q from '../queries/claim-definitions.js';
import { findGroups } from '../queries/groups.js';

const MAX_BASE_LENGTH = 200;

/** A claim type without surrounding blanks; an empty one is a 400. */
export function claimTypeOf(input: { claimType: string }): string {
  const claimType = input.claimType.trim();
  if (!claimType) throw badRequest('a claimType is required', [{ field: 'claimType', message: 'must not be empty' }]);
  return claimType;
}

/**
 * The variable name a claim type suggests: its last path or URN segment with every character other than letters,
 * digits and `_` removed (`http://schemas.example/claims/e-mail` → `email`); `claim` when nothing is left, `_`
 * first when it would start with a digit.
 */
export function baseVariableName(claimType: string): string {
  const segments = claimType.split(/[/:#?=]/).filter((s) => s.replace(/\W/g, '') !== '');
  const word = (segments.at(-1) ?? '').replace(/\W/g, '').slice(0, MAX_BASE_LENGTH);
  if (!word) return 'claim';
  return /^\d/.test(word) ? `_${word}` : word;
}

/** The suggested variable name, or it followed by the smallest number from 2 that makes it unique. */
export async function freeVariableName(db: DbOrTx, claimType: string): Promise<string> {
  const base = baseVariableName(claimType);
  const taken = await q.variableNamesStartingWith(db, base);
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    if (!taken.has(`${base}${n}`.toLowerCase())) return `${base}${n}`;
  }
}

/** The groups' names as stored; 400 naming every group that does not exist. */
async function existingGroupNames(db: DbOrTx, names: readonly string[]): Promise<string[]> {
  const unique = [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];
  const found = new Map((await findGroups(db, unique)).map((g) => [g.name.toLowerCase(), g.name]));
  const missing = unique.filter((n) => !found.has(n.toLowerCase()));
  if (missing.length > 0) {
    throw badRequest(
      `groupNames: no group named ${missing.join(', ')}`,
      missing.map((name) => ({ field: 'groupNames', value: name, message: 'no such group' })),
    );
  }
  return unique.map((n) => found.get(n.toLowerCase())!);
}

/**
 * The stored values of a create or a full update: absent fields take their defaults (kind FreeClaimDefinition,
 * booleans false, countSpecification Multiple); `allowedValues` are kept for the Optional kind and `groupNames`
 * (which must name existing groups) for the Group kind. An absent variable name keeps `current` on update and is
 * derived from the claim type on create; a variable name of another definition is a 409.
 */
export async function resolveValues(
  db: DbOrTx,
  claimType: string,
  input: ClaimDefinitionInput,
  current?: q.ClaimDefinitionRow,
): Promise<q.ClaimDefinitionValues> {
  const kind = input.kind ?? 'FreeClaimDefinition';
  const variableName = input.variableName ?? current?.variableName ?? (await freeVariableName(db, claimType));
  const owner = await q.findByVariableName(db, variableName, current?.id);
  if (owner) throw conflict(`the variable name ${variableName} is used by the claim definition ${owner.claimType}`);
  return {
    kind,
    friendlyName: input.friendlyName ?? null,
    variableName,
    description: input.description ?? null,
    avoidIssue: input.avoidIssue ?? false,
    avoidUpsize: input.avoidUpsize ?? false,
    countSpecification: input.countSpecification ?? 'Multiple',
    claimValueSpace: input.claimValueSpace ?? null,
    showAsColumnOnUserlist: input.showAsColumnOnUserlist ?? false,
    sensitive: input.sensitive ?? false,
    userEditable: input.userEditable ?? false,
    restrictedSubOrganizationView: input.restrictedSubOrganizationView ?? false,
    allowedValues: kind === 'OptionalClaimDefinition' ? [...new Set(input.allowedValues ?? [])] : [],
    groupNames: kind === 'GroupClaimDefinition' ? await existingGroupNames(db, input.groupNames ?? []) : [],
  };
}
