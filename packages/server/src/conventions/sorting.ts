import type { ListSpec } from '@idsvc/shared';

export interface SortRequest {
  /** One of the operation's sortable fields, as the catalog spells it. */
  field: string;
  descending: boolean;
}

/** sortBy from the allowlist (case-insensitive); blank or unknown falls back to the default. */
export function resolveSort(spec: ListSpec, sortBy: string | undefined, sortOrder: string | undefined): SortRequest {
  const wanted = sortBy?.trim().toLowerCase();
  const field = spec.sortable.find((f) => f.toLowerCase() === wanted) ?? spec.defaultSort;
  return { field, descending: sortOrder?.trim().toLowerCase() === 'descending' };
}
