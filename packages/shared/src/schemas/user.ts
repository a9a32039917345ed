import { z } from 'zod';
import { ClaimValue, Email, Guid, IsoDateTime, Name, PhoneNumber } from './common.js';

const Password = z.string().max(1024, 'must be at most 1024 characters');

/** Forms of a PHC string idsvc verifies: argon2id/argon2i, bcrypt ($2a$/$2b$) and pbkdf2-sha256. */
export const passwordHashForms = {
  argon2:
    /^\$argon2(id|i)\$(v=(16|19)\$)?m=\d{1,7},t=\d{1,4},p=\d{1,3}\$[A-Za-z0-9+/]{11,}={0,2}\$[A-Za-z0-9+/]{16,}={0,2}$/,
  bcrypt: /^\$2[ab]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/,
  pbkdf2: /^\$pbkdf2-sha256\$(i=)?(\d{1,8})\$[A-Za-z0-9+/.]{4,}={0,2}\$[A-Za-z0-9+/.]{22,}={0,2}$/,
} as const;

/** The most pbkdf2 iterations a migrated hash may ask for (a higher count would make each login a denial of service). */
export const maxPbkdf2Iterations = 10_000_000;

/**
 * A password hash migrated from another system, stored as given and verified at login (write-only): a PHC string
 * of argon2id or argon2i, bcrypt (`$2a$`, `$2b$`) or pbkdf2-sha256 (`$pbkdf2-sha256$i=ITERATIONS$SALT$HASH`).
 */
export const PasswordHash = z
  .string()
  .max(1024, 'must be at most 1024 characters')
  .refine((value) => Object.values(passwordHashForms).some((form) => form.test(value)), {
    message: 'must be a PHC string of argon2id, argon2i, bcrypt ($2a$/$2b$) or pbkdf2-sha256',
  })
  .refine(
    (value) => {
      const iterations = passwordHashForms.pbkdf2.exec(value)?.[2];
      return iterations === undefined || (Number(iterations) >= 1 && Number(iterations) <= maxPbkdf2Iterations);
    },
    { message: `pbkdf2-sha256 iterations must be between 1 and ${maxPbkdf2Iterations}` },
  );

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
 * both). `password`, `oldPassword` and `passwordHash` are write-only; `oldPassword` is checked first on update.
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
  /** Write-only: a hash from another system, stored instead of hashing `password` (both given: 400). */
  passwordHash: PasswordHash.optional(),
});
export type UserInput = z.infer<typeof UserInput>;

/** Body of a user update: as a create, but the id names the user to update and absent fields keep their values. */
export const UserUpdateInput = UserInput.extend({ id: Guid, userName: Name.optional() });
export type UserUpdateInput = z.infer<typeof UserUpdateInput>;
