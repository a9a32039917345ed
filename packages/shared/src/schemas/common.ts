import { z } from 'zod';

/** A GUID in its canonical 8-4-4-4-12 hexadecimal form. */
export const Guid = z.guid({ error: 'must be a GUID (8-4-4-4-12 hexadecimal digits)' });
export type Guid = z.infer<typeof Guid>;

/** The name (key) of a resource. */
export const Name = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters');
export type Name = z.infer<typeof Name>;

export const Description = z.string().max(2048, 'must be at most 2048 characters');
export type Description = z.infer<typeof Description>;

export const Email = z.email({ error: 'must be an e-mail address' }).max(256, 'must be at most 256 characters');
export type Email = z.infer<typeof Email>;

/** A claim type: usually a URI such as `http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress`. */
export const ClaimType = z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters');
export type ClaimType = z.infer<typeof ClaimType>;

/** A phone number, international form preferred (`+31612345678`); spaces, dots, dashes and parentheses allowed. */
export const PhoneNumber = z
  .string()
  .max(64, 'must be at most 64 characters')
  .regex(/^\+?[0-9][0-9 .()-]{2,62}$/, 'must be a phone number such as +31612345678');
export type PhoneNumber = z.infer<typeof PhoneNumber>;

/** An ISO 8601 date-time as produced by `Date.prototype.toISOString` (offsets accepted). */
export const IsoDateTime = z.iso.datetime({ offset: true });
export type IsoDateTime = z.infer<typeof IsoDateTime>;

/** A list of names with at least one entry (bodies of delete-many operations). */
export const NameList = z.array(Name).min(1, 'must list at least one name');
export type NameList = z.infer<typeof NameList>;

export const GuidList = z.array(Guid).min(1, 'must list at least one id');
export type GuidList = z.infer<typeof GuidList>;

export const ClaimTypeList = z.array(ClaimType).min(1, 'must list at least one claim type');
export type ClaimTypeList = z.infer<typeof ClaimTypeList>;

/** One claim of a user: `{ type, value }`. */
export const ClaimValue = z.object({
  type: ClaimType,
  value: z.string().max(4096, 'must be at most 4096 characters'),
});
export type ClaimValue = z.infer<typeof ClaimValue>;

export const sortOrders = ['Ascending', 'Descending'] as const;
export type SortOrder = (typeof sortOrders)[number];

/** Upper bound (and default) of pageSize. */
export const maxPageSize = 1000;

/** Paging query parameters as they arrive (URL strings); the server normalises them as the conventions say. */
export const PagingQuery = z.object({
  pageIndex: z.string().optional(),
  pageSize: z.string().optional(),
  sortBy: z.string().optional(),
  sortOrder: z.string().optional(),
});
export type PagingQuery = z.infer<typeof PagingQuery>;

/** Paging plus the filter operations' `filter` (SCIM expression) and `attributes` (comma-separated). */
export const FilterQuery = PagingQuery.extend({
  filter: z.string().optional(),
  attributes: z.string().optional(),
});
export type FilterQuery = z.infer<typeof FilterQuery>;

export const patchOps = ['add', 'replace', 'remove'] as const;
export type PatchOp = (typeof patchOps)[number];

function lowerCaseKeys(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const lower = key.toLowerCase();
    out[lower] = lower === 'op' && typeof value === 'string' ? value.toLowerCase() : value;
  }
  return out;
}

/** One PATCH operation; keys (`op`, `path`, `value`) and the op name are read case-insensitively. */
export const PatchOperation = z.preprocess(
  lowerCaseKeys,
  z.object({
    op: z.enum(patchOps, { error: 'op must be one of add, replace, remove' }),
    path: z.string().max(1024).optional(),
    value: z.unknown().optional(),
  }),
);
export type PatchOperation = z.infer<typeof PatchOperation>;

/** A PATCH body: a non-empty list of operations. */
export const PatchBody = z.array(PatchOperation).min(1, 'must hold at least one operation');
export type PatchBody = z.infer<typeof PatchBody>;

/** An item a batch operation could not handle: its index in the body, its key, and why. */
export const BatchFailure = z.object({
  index: z.number().int(),
  id: z.string(),
  error: z.string(),
  message: z.string(),
});
export type BatchFailure = z.infer<typeof BatchFailure>;

/** Result of a delete-many operation that reports per item (keys are ids or names). */
export const BatchDeleteResult = z.object({
  deleted: z.array(z.string()),
  failed: z.array(BatchFailure),
});
export type BatchDeleteResult = z.infer<typeof BatchDeleteResult>;

/** Result of a create-many or update-many operation that reports per item. */
export function batchResult<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), failed: z.array(BatchFailure) });
}
