import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { dataResponse, isoDate, numberOrTypedText, storableText } from './common.js';
import { mobileNumber, mobileOnFile } from './customers.js';
import { isOneLineName, optionalPersonName } from './names.js';
import { POS_LIMITS } from './pos.js';
import { tierStanding } from './tier-standing.js';

export const CASHCR = { credit: 'CR', debit: 'DB' } as const;
export type CashCr = (typeof CASHCR)[keyof typeof CASHCR];

/** How a ledger row came to be: M typed by staff (editable), S from a sale, O opening balance. */
export const ENTRY_SOURCE = { manual: 'M', sale: 'S', opening: 'O' } as const;

export const POINTS_DEFAULT_NARRATION = { CR: 'Points allocated', DB: 'Points deducted' } as const;
export const OPENING_BALANCE_NARRATION = 'Opening Balance';

const pointsRule = `Loyalty points must be a whole number from 1 to ${LIMITS.pointsMax.toLocaleString('en-IN')}.`;

/**
 * Points arrive as text (the form keeps them as text, grouped or not: "1,000") or as a whole
 * number.
 */
export const pointsValue = numberOrTypedText(pointsRule).refine(
  (n) => Number.isInteger(n) && n >= 1 && n <= LIMITS.pointsMax,
  { error: pointsRule },
);

export const pointsForm = z.object({
  CUSTNAME: optionalPersonName('Name'),
  MOBILENO: mobileNumber,
  POINTS: pointsValue,
  NARRATION: storableText('Narration')
    .trim()
    .max(LIMITS.narrationMaxLength, {
      error: `Narration must be at most ${LIMITS.narrationMaxLength} characters.`,
    })
    .default(''),
  INVDATE: isoDate('Date'),
  CASHCR: z.enum(['CR', 'DB'], {
    error: 'Choose Points Allocation (credit) or Points Deduction (debit).',
  }),
});
export type PointsFormInput = z.input<typeof pointsForm>;
export type PointsForm = z.output<typeof pointsForm>;

export const updatePointsRequest = z.object({ formData: pointsForm });

const entryRule = 'The entry to change is not valid: open it again from the statement.';

export const updateStatementRequest = z.object({
  formData: pointsForm.extend({
    // Digits only: not `true`, `1e3` or `0x1F`, which Number() would turn into an entry number.
    MRN: z
      .union([z.number(), z.string().trim().regex(/^\d+$/, { error: entryRule })], {
        error: entryRule,
      })
      .transform(Number)
      .refine((mrn) => Number.isSafeInteger(mrn) && mrn > 0, { error: entryRule }),
  }),
});
export type UpdateStatementRequest = z.input<typeof updateStatementRequest>;

export const pointsStatementRequest = z
  .object({ MOBILENO: mobileOnFile, DFROM: isoDate('Date from'), DTO: isoDate('Date to') })
  .refine((filter) => filter.DFROM <= filter.DTO, {
    error: 'Date from must not be after Date to.',
    path: ['DFROM'],
  });
export type PointsStatementFilter = z.infer<typeof pointsStatementRequest>;

/** A ledger row; SALEAMT in rupees, points whole numbers, INVDATE null on the opening row. */
export const statementRow = z.object({
  MRN: z.number(),
  INVDATE: z.string().nullable(),
  NARRATION: z.string(),
  SALEAMT: z.number(),
  RCREDIT: z.number(),
  RDEBIT: z.number(),
  TS: z.string(),
  CUSTNAME: z.string(),
  MOBILENO: z.string(),
  CASHCR: z.enum(['CR', 'DB']),
});
export type StatementRow = z.infer<typeof statementRow>;
export const pointsStatementResponse = dataResponse(z.array(statementRow));

/** A credit or deduction made: the customer's new balance, to tell them at the counter. */
export const pointsUpdateResponse = dataResponse(z.object({ balance: z.number() }));

/**
 * Points redeemed at the counter by staff: the customer's mobile, the points, and the bill
 * they are taken against when there is one.
 */
export const counterRedemptionRequest = z.object({
  mobile: mobileNumber,
  points: pointsValue,
  // The billing system's invoice number, as its own redemptions carry it; on one line, as it
  // goes into the ledger's narration.
  invoiceNo: storableText('Invoice number')
    .trim()
    .max(POS_LIMITS.documentNoMaxLength, {
      error: `Invoice number must be at most ${POS_LIMITS.documentNoMaxLength} characters.`,
      abort: true,
    })
    .refine(isOneLineName, { error: MESSAGES.nameOnOneLine('Invoice number') })
    .optional(),
});
export type CounterRedemptionRequest = z.input<typeof counterRedemptionRequest>;

/** What was redeemed: the points, their value in rupees, and the balance left. */
export const counterRedemptionAnswer = z.object({
  points: z.number(),
  value: z.number(),
  balance: z.number(),
});
export type CounterRedemptionAnswer = z.infer<typeof counterRedemptionAnswer>;
export const counterRedemptionResponse = dataResponse(counterRedemptionAnswer);

/** What the counter shows before a redemption: the balance, its value, and the rules' minimum. */
export const redeemTermsRequest = z.object({ mobile: mobileOnFile });
export const redeemTermsResponse = dataResponse(
  z
    .object({
      balance: z.number(),
      /** The balance's worth in rupees. */
      value: z.number(),
      /** A point's worth in rupees. */
      pointValue: z.number(),
      minRedeemPoints: z.number(),
    })
    .extend(tierStanding.partial().shape),
);

/** The first day of the current financial year, YYYY-MM-DD. */
export const financialYearResponse = dataResponse(z.object({ sfdate: z.string() }));

/** The spec's balance rule: the larger side minus the smaller, shown on that side. */
export function statementTotals(rows: Pick<StatementRow, 'RCREDIT' | 'RDEBIT' | 'SALEAMT'>[]) {
  const credit = rows.reduce((sum, row) => sum + row.RCREDIT, 0);
  const debit = rows.reduce((sum, row) => sum + row.RDEBIT, 0);
  const sale = rows.reduce((sum, row) => sum + row.SALEAMT, 0);
  return {
    total: { sale, credit, debit },
    balance:
      credit > debit ? { credit: credit - debit, debit: 0 } : { credit: 0, debit: debit - credit },
  };
}
