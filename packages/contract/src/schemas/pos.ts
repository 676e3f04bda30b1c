import { z } from 'zod';
import { fieldName } from '../refusals.js';
import { dataResponse, isoDate, requiredText, storableText } from './common.js';
import { mobileNumber } from './customers.js';
import { MESSAGES } from '../messages.js';
import { INDIAN_MOBILE_PATTERN } from '../validation.js';
import { optionalPersonName } from './names.js';
import { tierStanding } from './tier-standing.js';

/**
 * Points from sales: the counter's billing system (POS) posts invoices, returns and
 * redemptions with an API key; the owner sets the points rules and makes the keys.
 * Amounts travel as rupees with at most 2 decimals and are kept as integer paise.
 */

/** How a ledger row came to be, as the statement shows it. */
export const LEDGER_CODE_LABELS = {
  O: 'Opening',
  M: 'Manual',
  S: 'Sale',
  X: 'Return',
  R: 'Redemption',
  E: 'Expired',
} as const;

export const POS_LIMITS = {
  documentNoMaxLength: 40,
  linesMax: 200,
  categoryMaxLength: 40,
  descriptionMaxLength: 200,
  /** ₹10 crore: no single line of a jewellery invoice comes near it. */
  lineAmountMaxPaise: 1_000_000_000,
  apiKeyLabelMaxLength: 60,
} as const;

/** A number of rupees given as a number must not carry more than 2 decimals. */
const twoDecimals = (value: number) =>
  Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

/** Rupees with at most 2 decimals, a JSON number; becomes integer paise. */
export const rupees = (
  field: string,
  { allowZero = true, maxPaise = POS_LIMITS.lineAmountMaxPaise as number } = {},
) => {
  const rule = `${fieldName(field)} must be an amount in rupees with at most 2 decimals${allowZero ? '' : ', above 0'}.`;
  return z
    .number({ error: rule })
    .refine(twoDecimals, { error: rule, abort: true })
    .transform((value) => Math.round(value * 100))
    .refine(
      (paise) => Number.isSafeInteger(paise) && paise >= (allowZero ? 0 : 1) && paise <= maxPaise,
      { error: rule },
    );
};

const amountOf = (field: string) => rupees(field);

const documentNo = (field: string) => requiredText(field, POS_LIMITS.documentNoMaxLength);

export const posLine = z.object({
  description: storableText('description')
    .trim()
    .max(POS_LIMITS.descriptionMaxLength, {
      error: `Description must be at most ${POS_LIMITS.descriptionMaxLength} characters.`,
    })
    .default(''),
  category: requiredText('category', POS_LIMITS.categoryMaxLength).transform((c) =>
    c.toLowerCase(),
  ),
  amount: amountOf('amount'),
});
export type PosLine = z.output<typeof posLine>;

const lines = z
  .array(posLine, { error: 'The invoice lines must be a list of invoice lines.' })
  .min(1, { error: 'The invoice lines must have at least one line.' })
  .max(POS_LIMITS.linesMax, {
    error: `The invoice lines may have at most ${POS_LIMITS.linesMax} lines.`,
  });

export const posSaleRequest = z.object({
  invoiceNo: documentNo('invoiceNo'),
  invoiceDate: isoDate('invoiceDate'),
  mobile: mobileNumber,
  name: optionalPersonName('Name'),
  lines,
});
export type PosSaleRequest = z.output<typeof posSaleRequest>;
export const posSaleResponse = dataResponse(
  z.object({
    custid: z.number(),
    points: z.number(),
    balance: z.number(),
    eligibleAmount: z.number(),
    expiresOn: z.string().nullable(),
    /** The customer's tier after the sale (null: none); left out while no tiers are set. */
    tier: z.string().nullable().optional(),
  }),
);

export const posReturnRequest = z.object({
  returnNo: documentNo('returnNo'),
  invoiceNo: documentNo('invoiceNo'),
  returnDate: isoDate('returnDate'),
  lines,
});
export type PosReturnRequest = z.output<typeof posReturnRequest>;
export const posReturnResponse = dataResponse(
  z.object({ points: z.number(), unrecovered: z.number(), balance: z.number() }),
);

const wholePoints = z
  .number({ error: 'Points must be a whole number from 1 to 9,999,999.' })
  .int({ error: 'Points must be a whole number from 1 to 9,999,999.' })
  .min(1, { error: 'Points must be a whole number from 1 to 9,999,999.' })
  .max(9_999_999, { error: 'Points must be a whole number from 1 to 9,999,999.' });

export const posRedemptionRequest = z.object({
  invoiceNo: documentNo('invoiceNo'),
  mobile: mobileNumber,
  points: wholePoints,
});
export type PosRedemptionRequest = z.output<typeof posRedemptionRequest>;
export const posRedemptionResponse = dataResponse(
  z.object({ points: z.number(), value: z.number(), balance: z.number() }),
);

export const posRedemptionCancelRequest = z.object({ invoiceNo: documentNo('invoiceNo') });
export const posRedemptionCancelResponse = dataResponse(
  z.object({ points: z.number(), balance: z.number() }),
);

export const posCustomerParams = z.object({
  mobile: z.string().regex(INDIAN_MOBILE_PATTERN, {
    error: 'Mobile no. must be 10 digits starting with 6, 7, 8 or 9.',
  }),
});
export const posCustomerResponse = dataResponse(
  z
    .object({
      custname: z.string(),
      balance: z.number(),
      value: z.number(),
      expiringIn30Days: z.number(),
    })
    .extend(tierStanding.partial().shape),
);

/** The points rules as the owner sets them (amounts in rupees). */
export const pointsRulesForm = z.object({
  rupeesPerPoint: rupees('Rupees per point', { allowZero: false, maxPaise: 100_000_000 }),
  excludedCategories: z
    .array(requiredText('Each category', POS_LIMITS.categoryMaxLength), {
      error: 'Categories that earn no points must be a list of categories.',
    })
    .max(50, { error: 'At most 50 categories may earn no points.' })
    .transform((list) => [...new Set(list.map((c) => c.toLowerCase()))]),
  pointValue: rupees('The value of a point', { maxPaise: 100_000_000 }),
  minRedeemPoints: z
    .number({ error: 'Minimum points to redeem must be a whole number from 0 to 9,999,999.' })
    .int({ error: 'Minimum points to redeem must be a whole number from 0 to 9,999,999.' })
    .min(0, { error: 'Minimum points to redeem must be a whole number from 0 to 9,999,999.' })
    .max(9_999_999, {
      error: 'Minimum points to redeem must be a whole number from 0 to 9,999,999.',
    }),
  expiryMonths: z
    .number({ error: 'Points expire after a whole number of months from 0 (never) to 120.' })
    .int({ error: 'Points expire after a whole number of months from 0 (never) to 120.' })
    .min(0, { error: 'Points expire after a whole number of months from 0 (never) to 120.' })
    .max(120, { error: 'Points expire after a whole number of months from 0 (never) to 120.' }),
});
export type PointsRulesForm = z.output<typeof pointsRulesForm>;

const pointsRules = z.object({
  rupeesPerPoint: z.number(),
  excludedCategories: z.array(z.string()),
  pointValue: z.number(),
  minRedeemPoints: z.number(),
  expiryMonths: z.number(),
  validFrom: z.string(),
  /** The rules the installation started with: no owner has changed them yet. */
  isDefault: z.boolean().optional(),
});
export type PointsRules = z.infer<typeof pointsRules>;
/** The rules in force, and every earlier version (newest first). */
export const pointsRulesResponse = dataResponse(
  z.object({ current: pointsRules, history: z.array(pointsRules) }),
);

export const apiKeyAddRequest = z.object({
  label: requiredText('label', POS_LIMITS.apiKeyLabelMaxLength),
  branch: z
    .string({ error: 'Branch must be a branch code of 2 to 6 letters.' })
    .trim()
    .regex(/^[A-Za-z]{2,6}$/, { error: 'Branch must be a branch code of 2 to 6 letters.' })
    .transform((code) => code.toUpperCase())
    .optional(),
});
export const apiKeyAddResponse = dataResponse(z.object({ id: z.number(), key: z.string() }));
export const apiKeyRevokeRequest = z.object({
  id: z
    .number({ error: 'The API key number must be a whole number.' })
    .int({ error: 'The API key number must be a whole number.' })
    .min(1, { error: 'The API key number must be a whole number.' })
    .max(2_147_483_647, { error: 'The API key number must be a whole number.' }),
});
export const apiKeyListResponse = dataResponse(
  z.array(
    z.object({
      id: z.number(),
      label: z.string(),
      prefix: z.string(),
      branch: z.string().nullable(),
      createdAt: z.string(),
      lastUsedAt: z.string().nullable(),
      revokedAt: z.string().nullable(),
    }),
  ),
);

/** What the POS calls and the settings answer, in words for the counter and the owner. */
export const POS_MESSAGES = {
  apiKeyRequired: 'A valid API key is needed (X-Api-Key).',
  apiKeyOnlyForPos: 'An API key may call only /api/pos/*.',
  tooManyWrongKeys: (minutes: number) =>
    `Too many wrong API keys from this address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  invoiceConflict: 'This invoice number was already posted with other contents.',
  returnConflict: 'This return number was already posted with other contents.',
  redemptionConflict: 'This invoice already has a redemption with other contents.',
  invoiceNotFound: 'Invoice not found: post the sale before its return.',
  redemptionNotFound: 'No redemption for this invoice.',
  redemptionCancelled: 'This redemption was cancelled.',
  redemptionOfOtherCounter:
    "This redemption was made at another counter: cancel it with that counter's key.",
  returnedMoreThanSold: 'More is returned than the invoice sold.',
  returnBeforeInvoice: (invoiceDate: string) =>
    `Return date must not be before the invoice's date, ${invoiceDate}.`,
  tooManyPointsForOneSale: (points: number) =>
    `This sale would earn ${points} points, more than the 9,999,999 one sale may give. Check the points rules (rupees per point).`,
  // A redemption is refused in the same words whether staff or the billing system made it.
  belowMinimum: MESSAGES.redeemBelowMinimum,
  insufficientPoints: MESSAGES.insufficientPoints,
  customerNotFound: MESSAGES.customerNotFound,
  nameNeededToEnrol: 'Name is required to enrol a new customer.',
  invoiceDateInFuture: 'Invoice date must not be in the future.',
  returnDateInFuture: 'Return date must not be in the future.',
  apiKeyNotFound: 'API key not found.',
  apiKeyRevoked: 'API key revoked.',
  apiKeyMade: 'API key made: copy it now, it is shown only this once.',
  apiKeyShownOnce:
    'This key was already created; it is shown only once. Make a new one if it was lost.',
  pointsRulesSaved: 'Points rules saved; they apply from now on.',
} as const;
