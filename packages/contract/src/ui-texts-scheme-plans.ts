/**
 * The Scheme plans screen (the owner's plans), and how Scheme Initiation and the statement
 * speak of a plan and of a weight scheme's gold.
 */
export const SCHEME_PLAN_TEXTS = {
  intro:
    'The plans a customer may start a scheme on. A plan that schemes use keeps its terms: save new terms under a new code.',
  add: 'Add plan',
  addTitle: 'Add a scheme plan',
  editTitle: (code: string) => `Edit plan ${code}`,
  edit: (code: string) => `Edit plan ${code}`,
  table: 'Scheme plans',
  empty: 'No scheme plans yet.',
  loading: 'Loading the scheme plans',
  loadFailed: 'Error in loading the scheme plans.',
  saveFailed: 'Error in saving the scheme plan.',
  saving: 'Saving the plan',
  save: 'SAVE',
  cancel: 'CANCEL',
  // Columns and fields.
  code: 'Code',
  codeHelp: '2 to 10 letters or digits, e.g. GOLD11',
  name: 'Name',
  kind: 'Kind',
  kinds: { value: 'Value (rupees)', weight: 'Weight (22K grams)' },
  installments: 'Installments',
  installmentsHelp: 'Monthly, 1 to 11',
  minAmount: 'Minimum installment (₹)',
  colMinAmount: 'Min. installment',
  bonusPercent: 'Bonus (% of one installment)',
  colBonus: 'Bonus',
  graceDays: 'Grace days',
  graceDaysHelp: 'Paid later than this after its due date, an installment is late',
  redeemWithinDays: 'Days to redeem after maturity',
  redeemWithinDaysHelp:
    'Closed later than this, the scheme pays what was paid in, without the bonus',
  colRedeem: 'Redeem within',
  active: 'Offered to customers',
  colActive: 'Active',
  colSchemes: 'Schemes',
  actions: 'Actions',
  yes: 'Yes',
  no: 'No',
  percent: (percent: number) => `${percent}%`,
  days: (days: number) => `${days} ${days === 1 ? 'day' : 'days'}`,
  /** Adding under a code that is taken would change that plan instead. */
  codeTaken: (code: string) => `Plan ${code} exists already: edit it from the list.`,
  inUse: (schemes: number) =>
    `${schemes} ${schemes === 1 ? 'scheme uses' : 'schemes use'} this plan: its terms stay as they are. Only the name and whether it is offered can change; save new terms under a new code.`,
  standard:
    'STD is the standard scheme: its installments and bonus were set when Kanak was installed, not on this screen. Ask whoever installed Kanak to change them.',
  // Scheme Initiation: choosing the plan.
  plan: 'Plan',
  planOption: (code: string, name: string) => `${code} · ${name}`,
  /** The standard plan when the plans could not be read: the scheme starts as it always did. */
  standardName: 'Standard scheme',
  terms: (installments: number, minAmount: string, bonusPercent: number, graceDays: number) =>
    `${installments} monthly installments of at least ${minAmount} · bonus ${bonusPercent}% of one installment · ${graceDays} grace days`,
  weightNote: "Each installment buys gold at that day's 22K rate.",
  rateToday: (rate: string) => `Today's 22K rate: ${rate} a gram.`,
  noRateToday: "Today's 22K rate is not entered yet: it is needed to take an installment.",
  // A weight scheme's statement.
  colRate: '22K rate (₹/g)',
  colGrams: 'Grams',
  gold: 'Gold saved',
  /** A plan scheme's last day to close with its bonus. */
  redeemBy: 'Redeem by',
  totalGrams: 'Total grams',
  grams: (grams: string) => `${grams} g`,
  late: 'Late',
  lateHint: 'Paid after the grace days: it earns no bonus.',
} as const;
