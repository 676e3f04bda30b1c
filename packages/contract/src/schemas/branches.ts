import { z } from 'zod';
import { dataResponse, requiredText, storableText } from './common.js';

/** 2 to 6 capital letters: the prefix of the branch's receipt numbers. */
export const BRANCH_CODE_PATTERN = /^[A-Z]{2,6}$/;

export const branchCode = z
  .string({ error: 'Branch code is required.' })
  .trim()
  .min(1, { error: 'Branch code is required.' })
  .regex(BRANCH_CODE_PATTERN, { error: 'Branch code must be 2 to 6 capital letters (A to Z).' });

/** The paper a branch's counter prints receipts on: A4 sheets, or an 80 mm thermal roll. */
export const RECEIPT_PAPERS = ['a4', '80mm'] as const;
export type ReceiptPaper = (typeof RECEIPT_PAPERS)[number];

/** A branch as the Branches screen lists it and its printouts show it. */
export const branch = z.object({
  code: z.string(),
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  /** The state the branch is in (receipts print it with the GSTIN); absent when not set. */
  state: z.string().optional(),
  /** Absent: A4 sheets. */
  receiptPaper: z.enum(RECEIPT_PAPERS).optional(),
});
export type Branch = z.infer<typeof branch>;

/** Create a branch, or update the one with this code (the code itself never changes). */
export const branchSaveRequest = z.object({
  code: branchCode,
  name: requiredText('Branch name', 80),
  address: requiredText('Address', 300),
  phone: requiredText('Phone', 40),
  /** Left out, a saved branch keeps its state. */
  state: storableText('State', 'State must be text.')
    .trim()
    .max(40, { error: 'State must be at most 40 characters.' })
    .optional(),
  /** Left out, a saved branch keeps its paper (a new one prints on A4). */
  receiptPaper: z
    .enum(RECEIPT_PAPERS, { error: 'Receipt paper must be A4 or an 80 mm roll.' })
    .optional(),
});
export type BranchSaveRequest = z.input<typeof branchSaveRequest>;

export const branchesResponse = dataResponse(z.array(branch));
export const branchSaveResponse = dataResponse(branch);
