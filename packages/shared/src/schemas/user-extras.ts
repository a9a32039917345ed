import { z } from 'zod';
import { Description, Guid, IsoDateTime, Name } from './common.js';

/** A refresh token of a user (never the token itself). */
export const RefreshToken = z.object({
  id: z.string(),
  userId: Guid,
  clientId: z.string(),
  creationDate: IsoDateTime,
  expirationDate: IsoDateTime,
  refreshTokenExpirationDate: IsoDateTime,
  scope: z.string(),
});
export type RefreshToken = z.infer<typeof RefreshToken>;

/** A consent a user gave to a protocol connection. */
export const Consent = z.object({
  userId: Guid,
  protocolConnectionName: z.string(),
  scopes: z.array(z.string()),
  createdAt: IsoDateTime,
});
export type Consent = z.infer<typeof Consent>;

/** A second-factor authenticator a user may enrol from the profile page. */
export const Authenticator = z.object({
  connectionName: z.string(),
  pluginType: z.string(),
  enrolled: z.boolean(),
  enrolledAt: IsoDateTime.nullable(),
});
export type Authenticator = z.infer<typeof Authenticator>;

/** Body of PATCH /lockedusers: the user to unlock. */
export const UnlockUserInput = z.object({ userId: Guid });
export type UnlockUserInput = z.infer<typeof UnlockUserInput>;

/**
 * Names a user by one claim: type `id`, `userName`, `email`, or a claim type of the user's claims.
 */
export const IdentityClaim = z.object({
  type: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  value: z.string().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters'),
});
export type IdentityClaim = z.infer<typeof IdentityClaim>;

/** One item of a batch status change, and of its response. */
export const UserStatus = z.object({ identityClaim: IdentityClaim, active: z.boolean() });
export type UserStatus = z.infer<typeof UserStatus>;

export const UserStatusList = z.array(UserStatus).min(1, 'must hold at least one item');
export type UserStatusList = z.infer<typeof UserStatusList>;

/** Body of the search operations; every field is optional and an absent query returns everything. */
export const SearchQuery = z.object({
  filter: z.string().max(8192, 'must be at most 8192 characters').optional(),
  attributes: z.union([z.array(z.string().max(256)), z.string().max(8192)]).optional(),
  pageIndex: z.number().int().optional(),
  pageSize: z.number().int().optional(),
  sortBy: z.string().max(256).optional(),
  sortOrder: z.string().max(32).optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

/** Body of an offboarding request. */
export const OffboardInput = z.object({
  reason: Description.optional(),
  /** Mail the offboarding link to the user as well. */
  sendEmail: z.boolean().optional(),
  emailTemplateName: Name.optional(),
});
export type OffboardInput = z.infer<typeof OffboardInput>;

/** Answer of an offboarding request: the link that offboards the user. */
export const OffboardResult = z.object({
  userId: Guid,
  offboardLink: z.string(),
  expiresAt: IsoDateTime.nullable(),
});
export type OffboardResult = z.infer<typeof OffboardResult>;
