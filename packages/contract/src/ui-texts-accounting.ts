/** The Accounting screen's words: Tally's ledger names, the import file and the push. */
export const ACCOUNTING_TEXTS = {
  loading: 'Loading accounting settings',
  loadFailed: 'Error in loading accounting settings.',
  ledgersHeading: 'Tally company and ledgers (set up once)',
  ledgersIntro:
    'The vouchers go to these ledgers, named exactly as in Tally. Create each one in Tally once, under the group shown, before the first import.',
  ledgersSaved: 'Saved. Open this to change a ledger name.',
  company: 'Tally company',
  companyHelp: 'As Tally names it; leave empty for the company open in Tally.',
  underGroup: (group: string) => `In Tally: under ${group}`,
  defaults: 'These are the usual names; save them once they match your Tally company.',
  save: 'Save',
  saving: 'Saving',
  saveFailed: 'Error in saving accounting settings.',
  handOffHeading: 'Hand the books to Tally',
  handOffIntro:
    'A Receipt for every installment, a Journal for every scheme bonus, a Journal per month and branch for the loyalty points liability, and a Receipt for every Razorpay payout. Importing the same days again alters the vouchers instead of adding them twice.',
  razorpayNotSet:
    "Razorpay's keys are not set on this server, so the file has no Razorpay payouts: online installments stay in the clearing ledger until your accountant enters Razorpay's payouts from its settlement report.",
  downloadedWith: (settlements: number) =>
    settlements === 1
      ? 'Downloaded, with 1 Razorpay payout.'
      : `Downloaded, with ${settlements} Razorpay payouts.`,
  downloadedWithoutKeys:
    "Downloaded, without Razorpay payouts: Razorpay's keys are not set on this server.",
  downloadedBranch:
    "Downloaded. A branch's file has no Razorpay payouts: Razorpay pays the whole chain at once, so they come with All branches.",
  helpHeading: 'How to import in TallyPrime',
  helpSteps: [
    'Once: in TallyPrime, create each ledger named below under its group (Gateway of Tally → Create → Ledger), with exactly the same name.',
    'Choose the days (and a branch, or all) and press Download Tally file.',
    'In TallyPrime, open the company, then Gateway of Tally → Import → Transactions. Choose XML as the file format, give the downloaded file’s path and accept.',
    'Tally says how many vouchers it created and altered. Importing the same days again alters those vouchers: nothing is counted twice.',
    'Online installments are posted to Razorpay Clearing. Each Razorpay payout moves the money to the bank and books Razorpay’s fee and the GST on it, so the clearing ledger’s balance is what Razorpay has yet to pay out.',
  ],
  helpPush:
    'Send to Tally does the same without a file, when TallyPrime is open on the computer Kanak was set up to reach, with its XML server on (F1 Help → Settings → Connectivity: TallyPrime acting as Server or Both, port 9000).',
  groupsHeading: 'Ledgers and their Tally groups',
  ledgerColumn: 'Ledger in Kanak',
  nameColumn: 'Name in Tally',
  groupColumn: 'Under the group',
  from: 'From',
  to: 'To',
  branch: 'Branch',
  allBranches: 'All branches',
  exportFile: 'Download Tally file',
  exporting: 'Preparing the Tally file',
  exportFailed: 'Error in preparing the Tally file.',
  push: 'Send to Tally',
  pushing: 'Sending to Tally',
  pushFailed: 'Error in sending to Tally.',
  confirmTitle: 'Send these vouchers to Tally?',
  confirmQuestion: (from: string, to: string) =>
    `Every installment, scheme bonus, points journal and Razorpay payout from ${from} to ${to}, all branches, goes into Tally now. Vouchers sent before are altered, not added again.`,
  cancel: 'Cancel',
  confirm: 'Send',
  resultHeading: "Tally's answer",
  created: 'Created',
  altered: 'Altered',
  errors: 'Refused',
  vouchers: 'Vouchers sent',
} as const;
