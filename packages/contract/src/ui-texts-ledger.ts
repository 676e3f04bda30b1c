import { COUNTRY_PREFIX } from './limits.js';

/**
 * The fixed texts of the customer and loyalty-points screens: Customer
 * Profile, Edit customer balance, Points Statement and the shared customer search. The spec's
 * slip "cutomer" is corrected. The web app and its tests import them from here.
 */
export const LEDGER_TEXTS = {
  customerSearch: {
    /** How a search result reads: name, then (+91), then the mobile number. */
    optionLabel: (customer: { CUSTNAME: string; MOBILENO: string }) =>
      `${customer.CUSTNAME} (${COUNTRY_PREFIX}) ${customer.MOBILENO}`,
    noOptions: 'No matching customers',
    searching: 'Searching…',
  },
  customerProfile: {
    search: 'Enter mob no.',
    name: 'Name',
    email: 'Email',
    address: 'Address',
    city: 'City',
    pincode: 'Pincode',
    state: 'State',
    dob: 'Date of Birth',
    doa: 'Anniversary Date',
    aadhaar: 'Aadhaar',
    pan: 'PAN',
    save: 'SAVE',
    cancel: 'CANCEL',
    exportAll: 'Export All',
    /** Above the fields: what SAVE will do. */
    newCustomer: 'New customer: SAVE creates the profile.',
    existingCustomer: (label: string) => `Updating ${label}`,
    loading: 'Loading customer',
    saving: 'Saving',
    exporting: 'Exporting',
    incompleteDate: (field: string) => `${field} is not a complete date (DD/MM/YYYY).`,
  },
  loyaltyPoints: {
    form: 'Modify loyalty points',
    search: 'Search customer Mob no',
    mobile: 'Mobile no.',
    name: 'Name',
    date: 'Date',
    /** The accessible name of the two-button toggle. */
    entryType: 'Allocation or deduction',
    allocation: 'Points Allocation',
    deduction: 'Points Deduction',
    points: 'Loyalty Points',
    narration: 'Narration',
    update: 'UPDATE',
    updating: 'Updating',
    balance: 'Current balance',
    balanceValue: (points: string) => `${points} points`,
    balanceLoading: 'Loading balance',
    /** After an update: the new balance, after the spec's success text. */
    newBalance: (points: string) => `New balance: ${points} points.`,
    followUp: (customer: string) => `Another entry for ${customer}`,
    /** What is missing, said after the spec's "Please ensure all required fields are completed…". */
    missing: {
      customer: 'Choose the customer.',
      date: 'Choose the date.',
      entryType: 'Choose Points Allocation or Points Deduction.',
      points: 'Enter the loyalty points.',
    },
  },
  /** Redeem Points: a customer's points spent at the counter, with a printed slip. */
  redeem: {
    form: "Redeem a customer's points",
    search: 'Customer mobile number or name',
    balance: 'Balance',
    balanceValue: (points: string, worth: string) => `${points} points, worth ${worth}`,
    minimum: (points: string) => `At least ${points} points at a time`,
    termsLoading: 'Loading balance',
    termsFailed: 'The balance could not be read. Choose the customer again.',
    points: 'Points to redeem',
    pointsWorth: (worth: string) => `Worth ${worth}`,
    invoiceNo: 'Bill / invoice no. (optional)',
    redeem: 'REDEEM',
    enterPoints: 'Enter the points to redeem.',
    chooseCustomer: 'Choose the customer first.',
    confirmTitle: 'Redeem points?',
    confirmQuestion: (points: string, worth: string, customer: string) =>
      `Redeem ${points} points (${worth}) of ${customer}? This cannot be undone.`,
    confirm: 'REDEEM',
    cancel: 'CANCEL',
    redeeming: 'Redeeming',
    failed: 'The points could not be redeemed.',
    slip: {
      title: 'Redemption slip',
      customer: 'Customer',
      date: 'Date',
      points: 'Points redeemed',
      value: 'Value',
      balance: 'Balance left',
      invoiceNo: 'Bill / invoice no.',
      staff: 'Served by',
      pointsValue: (points: string) => `${points} points`,
      print: 'Print',
      close: 'Close',
    },
  },
  statement: {
    panel: 'Generate Statement',
    search: 'Search customer mobile no',
    name: 'Name',
    dateFrom: 'Date from',
    dateTo: 'Date to',
    generate: 'Generate Statement',
    generating: 'Generating statement',
    table: 'Points statement',
    columns: {
      edit: 'Edit',
      date: 'Date',
      narration: 'Narration',
      sale: 'Sale Amt.',
      credit: 'Credit',
      debit: 'Debit',
    },
    total: 'Total',
    balance: 'Balance',
    print: 'Print',
    downloadCsv: 'Download CSV',
    editEntry: (date: string, narration: string) => `Edit entry of ${date}: ${narration}`,
    dialog: 'Modify statement',
    dialogSearch: 'Change customer name & mobile no',
    update: 'UPDATE',
    cancel: 'CANCEL',
    /** The printout: the shop's heading, address and mobile, then this line. */
    printRange: (from: string, to: string) => `Points ledger from ${from} to ${to}.`,
    printCustomer: (name: string, mobileno: string) =>
      `Customer: ${name} (${COUNTRY_PREFIX}) ${mobileno}`,
    csvFileName: (mobileno: string, from: string, to: string) =>
      `points_ledger_${mobileno}_${from}_${to}.csv`,
  },
} as const;
