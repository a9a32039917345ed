import { z } from 'zod';
import { ClaimValue, Email, Guid, IsoDateTime, Name, PhoneNumber } from './common.js';

const Password = z.string().max(1024, 'must be at most 1024 characters');

/** A user as the API returns it; passwords are never returned. */
export const User = z.object({
  id: Guid,
  userName: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  active: z.boolean(),
  organization: z.string(),
  groups: z.array(z.string()),
  forceResetPasswordAfterFirstTimeLogin: z.boolean(),
  claims: z.array(ClaimValue),
  phoneNumber: z.string().nullable(),
  locked: z.boolean(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type User = z.infer<typeof User>;

/**
 * Body of a user create. Absent `active` means true and absent `organization` means `Root` (the server applies
 * both). `password` and `oldPassword` are write-only; `oldPassword` is checked first on update.
 */
export const UserInput = z.object({
  id: Guid.optional(),
  userName: Name,
  email: Email.nullable().optional(),
  displayName: z.string().max(256, 'must be at most 256 characters').nullable().optional(),
  active: z.boolean().optional(),
  organization: Name.optional(),
  groups: z.array(Name).optional(),
  forceResetPasswordAfterFirstTimeLogin: z.boolean().optional(),
  claims: z.array(ClaimValue).optional(),
  phoneNumber: PhoneNumber.nullable().optional(),
  password: Password.optional(),
  oldPassword: Password.optional(),
});
export type UserInput = z.infer<typeof UserInput>;

/** Body of a user update: as a create, but the id names the user to update and absent fields keep their values. */
export const UserUpdateInput = UserInput.extend({ id: Guid, userName: Name.optional() });
export type UserUpdateInput = z.infer<typeof UserUpdateInput>;
