import { COUNTRY_PREFIX } from './limits.js';

/**
 * The fixed texts of the three scheme screens: Scheme Initiation, Scheme
 * Statement and Scheme Summary, with their dialogs, receipts and printouts. The spec's own
 * messages live in MESSAGES; these are the labels around them. The web app and its tests import
 * them from here.
 */
const schemeColumns = {
  schemeId: 'Scheme ID',
  startDate: 'Start Date',
  maturityDate: 'Maturity Date',
  amount: 'Amount (₹)',
  status: 'Status',
} as const;

const payment = {
  date: 'Date',
  mode: 'Mode',
  reference: 'Reference',
  referenceHelp: 'UPI, card, bank or cheque reference (optional)',
  cancel: 'CANCEL',
  saving: 'Saving',
} as const;

/**
 * The owner's reason for a scheme's start, activation or installment dated further back than
 * staff may date one; the other staff's date fields stop at that day.
 */
export const BACKDATE_TEXTS = {
  reason: 'Reason for the earlier date',
  help: (earliest: string) =>
    `Dated before ${earliest}: say why it is entered late. The audit trail keeps it.`,
} as const;

export const SCHEME_TEXTS = {
  generation: {
    form: 'Start a scheme',
    search: 'Search customer mobile no',
    name: 'Name',
    date: 'Date',
    amount: 'Amount',
    submit: 'Generate Scheme',
    generating: 'Generating scheme',
    loadingCustomer: 'Loading customer',
    table: 'Customer schemes',
    tableTitle: 'Schemes of the customer',
    loadingSchemes: 'Loading schemes',
    columns: { ...schemeColumns, actions: 'Actions' },
    deleteAction: (schemeid: number) => `Delete scheme ${schemeid}`,
    deleteTitle: (schemeid: number) => `Delete Scheme ${schemeid}`,
    cancel: 'CANCEL',
    confirm: 'CONFIRM',
    deleting: 'Deleting',
    panTitle: 'Enter PAN',
    pan: 'PAN',
    save: 'SAVE',
    verifyingPan: 'Verifying PAN',
    savingPan: 'Saving PAN',
  },
  statement: {
    form: 'Generate Statement',
    schemeId: 'Scheme ID',
    generate: 'Generate Statement',
    generating: 'Generating statement',
    name: 'Name',
    mobile: 'Mobile No.',
    table: 'Scheme statement',
    columns: {
      sno: 'S no.',
      date: 'Installment Date',
      narration: 'Narration',
      amount: 'Amount',
      receipt: 'Receipt no.',
    },
    reprint: (receiptNo: string) => `Reprint receipt ${receiptNo}`,
    /** Where a scheme ID links to: its statement, with Add installment and Close scheme. */
    open: (schemeid: number) => `Open scheme ${schemeid}: statement, installments, close`,
    openFull: 'Open statement with installments',
    total: 'Total',
    print: 'Print',
    downloadCsv: 'Download CSV',
    status: 'Status',
    startDate: 'Start Date',
    maturityDate: 'Maturity Date',
    monthly: 'Monthly amount',
    paid: (paid: number, installments: number) => `${paid} of ${installments} paid`,
    installmentsLabel: 'Installments',
    addInstallment: 'Add installment',
    closeScheme: 'Close scheme',
    csvFileName: (schemeid: number) => `scheme_statement_${schemeid}.csv`,
    printTitle: (schemeid: number) => `Scheme statement: Scheme ${schemeid}`,
    printCustomer: (name: string, mobileno: string) =>
      `Customer: ${name} (${COUNTRY_PREFIX}) ${mobileno}`,
    printTerm: (start: string, maturity: string) =>
      `Start date: ${start} · Maturity date: ${maturity}`,
  },
  installment: {
    title: (schemeid: number) => `Add installment to Scheme ${schemeid}`,
    text: (amount: string) => `Record an installment of ${amount}. A numbered receipt follows.`,
    ...payment,
    record: 'RECORD',
    recordFailed: 'Error in recording installment.',
    /** Why Add installment is off: the month of today is paid. */
    monthPaid: (month: string) => `The installment for ${month} is already recorded.`,
    nextAlsoPaid: (month: string) => `The installment for ${month} is taken in advance too.`,
    advanceButton: (month: string) => `Take ${month} in advance`,
    advanceTitle: (schemeid: number, month: string) =>
      `Installment for ${month} in advance, Scheme ${schemeid}`,
    advanceText: (amount: string, month: string) =>
      `At the customer's request, record the installment of ${amount} for ${month} now. A numbered receipt follows.`,
  },
  activation: {
    action: (schemeid: number) => `Activate scheme ${schemeid}`,
    button: 'Activate',
    title: (schemeid: number) => `Activate Scheme ${schemeid}`,
    text: (amount: string) => `Record the first installment of ${amount} to activate the scheme.`,
    ...payment,
    activate: 'ACTIVATE',
    activateFailed: 'Error in activating scheme.',
    activated: (message: string, receiptNo: string) => `${message} Receipt ${receiptNo}.`,
  },
  close: {
    title: (schemeid: number) => `Close Scheme ${schemeid}`,
    question:
      'Closing pays out the scheme and cannot be undone. Please check the figures before confirming.',
    paid: 'Installments paid',
    paidValue: (paid: number, installments: number) => `${paid} of ${installments}`,
    deposited: 'Amount paid in',
    bonus: 'Bonus',
    onTime: 'Paid on time',
    redeemBy: 'Redeem by',
    bonusLapsed: (date: string) =>
      `The days to redeem ended on ${date}: the bonus has lapsed, the customer takes what they paid in.`,
    gold: 'Gold saved',
    bonusGold: 'Bonus gold',
    rate: "Today's 22K rate",
    maturityValue: 'Maturity value',
    figuring: 'Working out the figures',
    figuresFailed: 'Error in working out the figures.',
    cancel: 'CANCEL',
    confirm: 'CONFIRM',
    closing: 'Closing',
    closed: (message: string, maturityValue: string) =>
      `${message} Maturity value ${maturityValue}.`,
    closeFailed: 'Error in closing scheme.',
  },
  receipt: {
    title: (receiptNo: string) => `Receipt ${receiptNo}`,
    receiptNo: 'Receipt no.',
    customer: 'Customer',
    customerValue: (name: string, mobileno: string) => `${name} (${COUNTRY_PREFIX}) ${mobileno}`,
    scheme: 'Scheme',
    schemeValue: (schemeid: number) => `Scheme ${schemeid}`,
    date: 'Date',
    amount: 'Amount',
    mode: 'Mode',
    reference: 'Reference',
    installment: 'Installment',
    installmentValue: (n: number, of: number) => `${n} of ${of}`,
    amountInWords: 'In words',
    forMonth: 'For the month of',
    paidSoFar: 'Paid so far',
    rate: '22K rate',
    rateValue: (rate: string) => `${rate} a gram`,
    gold: 'Gold bought',
    gstin: 'GSTIN',
    /** The GSTIN is registered per state: the branch's state beside it when set. */
    gstinValue: (gstin: string, state?: string) => (state ? `${gstin} (${state})` : gstin),
    print: 'Print',
    close: 'Close',
    /** On a reprint, on screen and on paper: the customer already holds the original. */
    duplicate: 'DUPLICATE',
  },
  summary: {
    form: 'Filter schemes',
    search: 'Search customer mobile no',
    status: 'Status',
    from: 'From',
    to: 'To',
    generate: 'Generate Summary',
    generating: 'Generating summary',
    table: 'Scheme summary',
    columns: {
      schemeId: 'Scheme ID',
      name: 'Name',
      mobile: 'Mobile No',
      startDate: 'Start Date',
      amount: 'Amount (₹)',
      status: 'Status',
    },
    total: 'Total',
    print: 'Print',
    downloadCsv: 'Download CSV',
    openStatement: (schemeid: number) => `Open the statement of scheme ${schemeid}`,
    statementTitle: (schemeid: number) => `Statement of Scheme ${schemeid}`,
    loadingStatement: 'Loading statement',
    goBack: 'Go back',
    csvFileName: (from: string, to: string) => `scheme_summary_${from}_${to}.csv`,
    printTitle: (status: string, from: string, to: string) =>
      `Scheme summary (${status}) from ${from} to ${to}.`,
    pageOf: (page: number, pages: number, count: number) =>
      `Page ${page} of ${pages} · ${count.toLocaleString('en-IN')} ${count === 1 ? 'scheme' : 'schemes'}`,
    /** Print and CSV cover every row of the filter, fetched when pressed. */
    fetchingAll: 'Fetching every row',
  },
  status: { label: 'Status' },
} as const;
