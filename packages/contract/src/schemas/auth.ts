import { z } from 'zod';
import { branch } from './branches.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { ROLES } from '../access.js';
import { dataResponse, storableText } from './common.js';

/** Sign-in. Credentials are checked by the server only; the schema only bounds sizes. */
export const loginRequest = z.object({
  USERNAME: storableText('USERNAME', 'Username is required.')
    .trim()
    .min(1, { error: 'Username is required.' })
    .max(LIMITS.usernameMaxLength, {
      error: `Username must be at most ${LIMITS.usernameMaxLength} characters.`,
    }),
  PASSWORD: storableText('PASSWORD', 'Password is required.')
    .min(1, { error: 'Password is required.' })
    .max(128, { error: 'Password must be at most 128 characters.' }),
  stayLoggedIn: z.boolean({ error: 'Stay logged in must be ticked or not.' }).optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  accessToken: z.string().optional(),
  username: z.string().optional(),
  /** Signed in with a temporary password: every other call waits for a new one. */
  mustChangePassword: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

/** A new password: 8 to 15 characters (the input itself stops at 15). */
export const newPassword = z
  .string()
  .min(LIMITS.passwordMinLength, { error: MESSAGES.passwordLength })
  .max(LIMITS.passwordMaxLength, { error: MESSAGES.passwordLength });

export const updateCurrentUserRequest = z
  .object({
    username: storableText('username', 'Username is required.').max(LIMITS.usernameMaxLength),
    oldpassword: storableText('Old password', MESSAGES.provideOldPassword)
      .min(1, { error: MESSAGES.provideOldPassword })
      .max(128),
    newpassword: storableText('New password', MESSAGES.provideNewPassword)
      .min(1, { error: MESSAGES.provideNewPassword })
      .pipe(newPassword),
  })
  .refine((form) => !form.newpassword || form.oldpassword !== form.newpassword, {
    error: MESSAGES.passwordMustDiffer,
    path: ['newpassword'],
  });
export type UpdateCurrentUserRequest = z.infer<typeof updateCurrentUserRequest>;

export const updateCurrentUserResponse = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  accessToken: z.string().optional(),
});
export type UpdateCurrentUserResponse = z.infer<typeof updateCurrentUserResponse>;

export const branding = z.object({
  companyName: z.string(),
  companyTagline: z.string(),
  shopAddress: z.string(),
  shopPhone: z.string(),
  supportPhone: z.string(),
  poweredBy: z.string(),
  storeTimezone: z.string(),
  /** The shop's GSTIN, printed on receipts (reprints too); absent when the shop has none. */
  gstin: z.string().optional(),
  /** The shop's logo (GET /api/app/logo); absent when it has none. */
  logoUrl: z.string().optional(),
  /** Scheme terms, for the close confirmation's bonus figures. */
  installments: z.number().optional(),
  bonusPercent: z.number().optional(),
});
export type Branding = z.infer<typeof branding>;
export const brandingResponse = z.object({ success: z.boolean(), data: branding });

/** The signed-in staff member: what the web app shows and lets them do. */
export const staffMember = z.object({
  username: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  /** The staff member's branch: its code and name, and the address and phone its printouts carry. */
  branch: branch.nullable(),
  /** Signed in with a temporary password: the web app shows only "Change your password". */
  mustChangePassword: z.boolean(),
});
export type StaffMember = z.infer<typeof staffMember>;
export const meResponse = dataResponse(staffMember);

export const healthResponse = z.object({ success: z.boolean() });
/** Ready for traffic; when not, the usual refusal says why (503). */
export const readyResponse = z.object({ success: z.literal(true) });
