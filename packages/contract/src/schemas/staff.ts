import { z } from 'zod';
import { ROLES } from '../access.js';
import { LIMITS } from '../limits.js';
import { branchCode } from './branches.js';
import { dataResponse } from './common.js';
import { personName } from './names.js';

/** Letters, digits, dots, dashes and underscores: a username fits a URL, a log line, a CSV. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;

export const staffUsername = z
  .string({ error: 'Username is required.' })
  .trim()
  .min(1, { error: 'Username is required.' })
  .max(LIMITS.usernameMaxLength, {
    error: `Username must be at most ${LIMITS.usernameMaxLength} characters.`,
  })
  .regex(USERNAME_PATTERN, {
    error: 'Username may have only letters, digits, dots, dashes and underscores.',
  });

const staffName = personName('Name', 'Name is required.');

const role = z.enum(ROLES, { error: 'Role must be owner, manager or cashier.' });

export const staffAddRequest = z.object({
  username: staffUsername,
  name: staffName,
  role,
  /** The branch's code; the adding manager's own branch when left out. */
  branch: branchCode.optional(),
});
export type StaffAddRequest = z.input<typeof staffAddRequest>;

export const staffUpdateRequest = z.object({
  username: staffUsername,
  name: staffName.optional(),
  role: role.optional(),
  branch: branchCode.optional(),
});
export type StaffUpdateRequest = z.input<typeof staffUpdateRequest>;

export const staffUsernameRequest = z.object({ username: staffUsername });

/** A staff account as the Staff screen lists it. */
export const staffAccount = z.object({
  username: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  /** The branch's code. */
  branch: z.string(),
  disabled: z.boolean(),
  /** Signed in with a temporary password that has not been changed yet. */
  mustChangePassword: z.boolean(),
  createdAt: z.string(),
});
export type StaffAccount = z.infer<typeof staffAccount>;
export const staffListResponse = dataResponse(z.array(staffAccount));

/** Shown once: the new account's or the reset account's temporary password. */
export const temporaryPasswordResponse = dataResponse(
  z.object({ username: z.string(), temporaryPassword: z.string() }),
);
