import { z } from 'zod';
import { fieldName } from '../refusals.js';
import { addDays, isIsoDate } from '../dates.js';
import { dataResponse, isoDate, requiredText, storableText } from './common.js';

/**
 * The accountant's hand-off to TallyPrime: the Tally company and the ledgers the shop's
 * vouchers go to, the date range of an export or a push, and Tally's answer to a push.
 * Amounts in Tally are rupees with two decimals; Kanak keeps them as integer paise.
 */

/** Names as Tally shows them: printable text (no control characters, which XML cannot carry). */
const tallyName = (field: string) =>
  requiredText(field, 100).refine((name) => !/\p{Cc}/u.test(name), {
    error: `${fieldName(field)} may not hold control characters.`,
  });

/**
 * Each ledger's field, its label on the screen, its name in a new Tally company and the Tally
 * group it is created under (Tally's own group names, as its Create Ledger screen lists them).
 */
export const TALLY_LEDGERS = {
  cashLedger: { label: 'Cash (cash installments)', default: 'Cash', group: 'Cash-in-Hand' },
  upiLedger: { label: 'UPI installments', default: 'UPI Suspense', group: 'Current Assets' },
  cardLedger: { label: 'Card installments', default: 'Card Suspense', group: 'Current Assets' },
  bankLedger: {
    label: 'Bank (bank transfers and Razorpay payouts)',
    default: 'Bank',
    group: 'Bank Accounts',
  },
  chequeLedger: {
    label: 'Cheque installments',
    default: 'Cheques in Hand',
    group: 'Current Assets',
  },
  gatewayClearingLedger: {
    label: 'Online installments until Razorpay pays out (clearing)',
    default: 'Razorpay Clearing',
    group: 'Current Assets',
  },
  gatewayFeeLedger: {
    label: 'Razorpay fee',
    default: 'Payment Gateway Charges',
    group: 'Indirect Expenses',
  },
  gstInputLedger: {
    label: 'GST paid on the Razorpay fee (input credit)',
    default: 'Input GST',
    group: 'Duties & Taxes',
  },
  schemeAdvancesLedger: {
    label: 'Scheme advances (customers’ money)',
    default: 'Scheme Advances',
    group: 'Current Liabilities',
  },
  schemeBonusLedger: { label: 'Scheme bonus', default: 'Scheme Bonus', group: 'Indirect Expenses' },
  pointsExpenseLedger: {
    label: 'Loyalty points expense',
    default: 'Loyalty Points Expense',
    group: 'Indirect Expenses',
  },
  pointsLiabilityLedger: {
    label: 'Loyalty points liability',
    default: 'Loyalty Points Liability',
    group: 'Current Liabilities',
  },
} as const;
export type TallyLedgerField = keyof typeof TALLY_LEDGERS;
export const TALLY_LEDGER_FIELDS = Object.keys(TALLY_LEDGERS) as TallyLedgerField[];

export const accountingSettings = z.object({
  /** The Tally company the vouchers go to; empty: the company open in Tally. */
  company: storableText('Tally company')
    .trim()
    .max(100, { error: 'Tally company must be at most 100 characters.' })
    .refine((name) => !/\p{Cc}/u.test(name), {
      error: 'Tally company may not hold control characters.',
    }),
  ...(Object.fromEntries(
    TALLY_LEDGER_FIELDS.map((field) => [field, tallyName(TALLY_LEDGERS[field].label)]),
  ) as Record<TallyLedgerField, ReturnType<typeof tallyName>>),
});
export type AccountingSettings = z.output<typeof accountingSettings>;
export type AccountingSettingsForm = z.input<typeof accountingSettings>;

/** What a shop that never saved its settings gets. */
export const DEFAULT_ACCOUNTING_SETTINGS: AccountingSettings = {
  company: '',
  ...(Object.fromEntries(
    TALLY_LEDGER_FIELDS.map((field) => [field, TALLY_LEDGERS[field].default]),
  ) as Record<TallyLedgerField, string>),
};

export const accountingSettingsResponse = dataResponse(
  accountingSettings.extend({
    /** True until the owner saves the settings once. */
    isDefault: z.boolean(),
    /**
     * Whether this server holds Razorpay's keys, so that exports and pushes carry Razorpay's
     * settlements (its payouts to the bank, net of its fee and the GST on it).
     */
    razorpaySettlements: z.boolean(),
  }),
);
export type AccountingSettingsData = z.infer<typeof accountingSettingsResponse>['data'];

/** At most a year's days in one file: an accountant hands the books over month by month. */
export const TALLY_MAX_DAYS = 366;

const rangeRules = (range: { from: string; to: string }, context: z.RefinementCtx) => {
  // A date that is not one has its own message already.
  if (!isIsoDate(range.from) || !isIsoDate(range.to)) return;
  if (range.from > range.to)
    context.addIssue({
      code: 'custom',
      path: ['to'],
      message: 'The from date must not be after the to date.',
    });
  else if (addDays(range.from, TALLY_MAX_DAYS - 1) < range.to)
    context.addIssue({
      code: 'custom',
      path: ['to'],
      message: `The range may cover at most ${TALLY_MAX_DAYS} days; export it in parts.`,
    });
};

/** The days [from, to] whose vouchers go to Tally. */
export const tallyPushRequest = z
  .object({ from: isoDate('from'), to: isoDate('to') })
  .superRefine(rangeRules);
export type TallyPushRequest = z.input<typeof tallyPushRequest>;

/** An export may be one branch's (its code, any case); left out or empty, the whole chain. */
export const tallyExportRequest = z
  .object({
    from: isoDate('from'),
    to: isoDate('to'),
    branch: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      z
        .string({ error: 'Branch must be a branch code of 2 to 6 letters.' })
        .trim()
        .regex(/^[A-Za-z]{2,6}$/, { error: 'Branch must be a branch code of 2 to 6 letters.' })
        .transform((code) => code.toUpperCase())
        .optional(),
    ),
  })
  .superRefine(rangeRules);
export type TallyExportRequest = z.input<typeof tallyExportRequest>;

/** Tally's answer to a push, as its import result counts it. */
export const tallyPushResult = z.object({
  /** Vouchers sent. */
  vouchers: z.number(),
  created: z.number(),
  altered: z.number(),
  errors: z.number(),
  /** Tally's own words for each voucher it refused. */
  lineErrors: z.array(z.string()),
});
export type TallyPushResult = z.infer<typeof tallyPushResult>;
export const tallyPushResponse = dataResponse(tallyPushResult);

/** The Tally import file itself (XML), sent as a download. */
export const tallyExportResponse = z.string();

/**
 * The import file's header saying what it holds of Razorpay's settlements: their number, or
 * `not-set` (this server has no Razorpay keys), or `branch` (one branch's file: Razorpay pays
 * the whole chain at once, so its settlements come with the whole chain's file).
 */
export const RAZORPAY_SETTLEMENTS_HEADER = 'x-razorpay-settlements';

/** The file's name: the days it covers, and the branch when it is one branch's. */
export const tallyFileName = (range: { from: string; to: string; branch?: string | undefined }) =>
  `tally-vouchers${range.branch ? `-${range.branch}` : ''}-${range.from}${
    range.from === range.to ? '' : `-to-${range.to}`
  }.xml`;

const pushedWords = (result: TallyPushResult) =>
  result.errors === 0
    ? `Tally imported ${result.vouchers} vouchers: ${result.created} created, ${result.altered} altered.`
    : `Tally refused ${result.errors} of ${result.vouchers} vouchers: ${result.created} created, ${result.altered} altered.`;

export const ACCOUNTING_MESSAGES = {
  settingsSaved: 'Accounting settings saved.',
  tallyNotSet:
    'Sending to Tally is not set up on this server yet: ask whoever installed Kanak to connect it, or use Download Tally file and import the file in TallyPrime.',
  tallyUnreachable: 'Tally did not answer. Check that TallyPrime is open with its XML server on.',
  tallyBadAnswer: 'Tally answered with something that is not an import result.',
  tallyTimedOut: (seconds: number) =>
    `Tally did not finish answering within ${seconds} s. Check that TallyPrime is open with its XML server on, then push again: vouchers Tally already took are altered, not repeated.`,
  tallyRedirected:
    "Tally's address answered with a redirect to another address: nothing was sent there. Ask whoever installed Kanak to check that Tally's address is TallyPrime's own.",
  tallyAnswerTooLong: (megabytes: number) =>
    `Tally's address answered with more than ${megabytes} MB, which is no import result: not read. Ask whoever installed Kanak to check that Tally's address is TallyPrime's own.`,
  pushed: pushedWords,
  /** A repeated push's answer: Tally's counts are kept, its words (which may quote a customer) are not. */
  pushedAgain: (result: TallyPushResult) =>
    result.errors === 0
      ? pushedWords(result)
      : `${pushedWords(result)} Tally's reasons are shown only once: push again to see them.`,
  unknownBranch: 'No branch has that code.',
  razorpayUnreachable:
    'Razorpay did not answer, so its settlements could not be read: nothing was downloaded or sent. Try again in a few minutes.',
  razorpayTimedOut: (seconds: number) =>
    `Razorpay did not finish answering within ${seconds} s, so its settlements could not be read: nothing was downloaded or sent. Try again in a few minutes.`,
  razorpayLimited:
    'Razorpay is turning away requests just now (too many at once), so its settlements could not be read: nothing was downloaded or sent. Try again in a minute.',
  razorpayRefused:
    'Razorpay refused to list the settlements: ask whoever installed Kanak to check the Razorpay keys it was given. Nothing was downloaded or sent.',
  razorpayBadAnswer:
    "Razorpay's address answered with something that is not Razorpay's settlements: nothing was downloaded or sent. Ask whoever installed Kanak to check the Razorpay address it was given.",
  razorpayRedirected:
    "Razorpay's address answered with a redirect to another address: nothing was sent there. Ask whoever installed Kanak to check the Razorpay address it was given.",
};
