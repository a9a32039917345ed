/** Abstract syntax of a SCIM 2.0 filter (RFC 7644 §3.4.2.2). */

export const COMPARE_OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'] as const;
export type CompareOperator = (typeof COMPARE_OPERATORS)[number];

export type FilterValue = string | number | boolean | null;

/**
 * An attribute as written in the filter (case kept). `sub` is the sub-attribute after a dot:
 * `name.familyName` → `{ attr: 'name', sub: 'familyName' }`. A URN prefix stays part of `attr`:
 * `urn:ietf:params:scim:schemas:core:2.0:User:userName` → `{ attr: 'urn:ietf:params:scim:schemas:core:2.0:User:userName' }`.
 */
export interface AttrPath {
  attr: string;
  sub?: string;
}

/** `attr op value`, for example `userName eq "bjensen"`. */
export interface CompareNode {
  kind: 'compare';
  attr: AttrPath;
  op: CompareOperator;
  value: FilterValue;
}

/** `attr pr`: the attribute has a (non-empty) value. */
export interface PresentNode {
  kind: 'present';
  attr: AttrPath;
}

export interface AndNode {
  kind: 'and';
  left: FilterNode;
  right: FilterNode;
}

export interface OrNode {
  kind: 'or';
  left: FilterNode;
  right: FilterNode;
}

export interface NotNode {
  kind: 'not';
  expr: FilterNode;
}

/**
 * `attr[filter]` over a multi-valued attribute, for example `claims[type eq "urn:x" and value sw "a"]`.
 * The attributes inside `filter` are sub-attributes of `attr`.
 */
export interface ValuePathNode {
  kind: 'valuePath';
  attr: string;
  filter: FilterNode;
}

export type FilterNode = CompareNode | PresentNode | AndNode | OrNode | NotNode | ValuePathNode;
