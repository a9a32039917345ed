import type { ClaimValue, Transformation, TransformationType } from '@idsvc/shared';
import type { AppContext } from '../context.js';
import { findTransformations } from '../queries/transformations.js';
import { applyTransformations, TransformationError } from '../transformations/apply.js';
import type { UserWithClaims } from './claims.js';
import type { OAuthClient } from './clients.js';
import { ServerError } from './oauth-errors.js';

/** Applies a client's claim transformations to the claims about to be released; returns the claims to release. */
export type ClaimTransformer = (
  client: OAuthClient,
  who: UserWithClaims,
  claims: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

export const noTransformation: ClaimTransformer = async (_client, _who, claims) => claims;

const booleanClaims = new Set(['email_verified', 'phone_number_verified']);

/** Released claims as a claim list (several values of one type become several claims; objects become JSON). */
export function toClaimList(claims: Record<string, unknown>): ClaimValue[] {
  const list: ClaimValue[] = [];
  for (const [type, value] of Object.entries(claims)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      list.push({ type, value: typeof one === 'string' ? one : JSON.stringify(one) });
    }
  }
  return list;
}

/** A claim list back as released claims, with the standard claims' JSON types (boolean, number, object). */
export function fromClaimList(list: readonly ClaimValue[]): Record<string, unknown> {
  const grouped = new Map<string, string[]>();
  for (const { type, value } of list) grouped.set(type, [...(grouped.get(type) ?? []), value]);
  const out: Record<string, unknown> = {};
  for (const [type, values] of grouped) {
    const typed = values.map((value) => {
      if (booleanClaims.has(type)) return value === 'true';
      if (type === 'updated_at' && /^\d+$/.test(value)) return Number(value);
      if (type === 'address' && value.startsWith('{')) {
        try {
          return JSON.parse(value) as unknown;
        } catch {
          return value;
        }
      }
      return value;
    });
    out[type] = typed.length === 1 ? typed[0] : typed;
  }
  return out;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function toTransformation(row: { name: string; data: Record<string, unknown> }): Transformation {
  const { data } = row;
  return {
    name: row.name,
    type: data.type as TransformationType,
    accessOrganizationName: text(data.accessOrganizationName),
    conditionNotApplyToRegisteredUsers: data.conditionNotApplyToRegisteredUsers === true,
    conditionNotApplyToUnregisteredUsers: data.conditionNotApplyToUnregisteredUsers === true,
    conditionExpression: text(data.conditionExpression),
    cultureCode: text(data.cultureCode),
    executeBeforeLoadingClaimsFromLocalStore: data.executeBeforeLoadingClaimsFromLocalStore === true,
    claimTypes: Array.isArray(data.claimTypes) ? data.claimTypes.map(String) : [],
    script: text(data.script),
  };
}

/**
 * The runtime's transformer: the client's claim transformations (its connection's `claimTransformations`, in that
 * order) applied by `applyTransformations` to a local user's claims. A failing script releases nothing: the
 * request fails with server_error.
 */
export function claimTransformerOf(ctx: Pick<AppContext, 'db'>): ClaimTransformer {
  return async (client, _who, claims) => {
    if (client.claimTransformations.length === 0) return claims;
    const rows = await findTransformations(ctx.db, client.claimTransformations);
    const order = client.claimTransformations.map((n) => n.toLowerCase());
    const transformations = rows
      .sort((a, b) => order.indexOf(a.name.toLowerCase()) - order.indexOf(b.name.toLowerCase()))
      .map(toTransformation);
    try {
      return fromClaimList(await applyTransformations(toClaimList(claims), transformations, { registeredUser: true }));
    } catch (error) {
      if (error instanceof TransformationError) throw new ServerError(error.message);
      throw error;
    }
  };
}
