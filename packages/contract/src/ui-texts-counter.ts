/**
 * The counter home once a customer is chosen: where their points stand, their running schemes
 * with what is due, one press to take the due installment, and a new number's "Add customer".
 */
export const COUNTER_HUB_TEXTS = {
  region: (name: string) => `${name} at the counter`,
  loading: 'Loading the customer',
  failed: 'The customer’s points and schemes could not be read.',
  retry: 'Try again',
  points: 'Loyalty points',
  balance: (points: string) => `${points} points`,
  /** When the points expiring within 30 days expire: "150 on 20/03/2026". */
  expiring: 'Expiring',
  expiringOn: (points: string, date: string) => `${points} on ${date}`,
  schemes: 'Running schemes',
  noSchemes: 'No running schemes.',
  scheme: (schemeid: number) => `Scheme ${schemeid}`,
  standardPlan: 'Standard scheme',
  perMonth: (amount: string) => `${amount} a month`,
  paid: (paid: number, installments: number) => `${paid} of ${installments} paid`,
  nextDue: (date: string) => `Next due ${date}`,
  overdue: (count: number) =>
    count === 1 ? '1 installment overdue' : `${count} installments overdue`,
  take: (amount: string, month: string) => `Take ${amount} for ${month}`,
  takeAdvance: (amount: string, month: string) => `Take ${amount} for ${month} in advance`,
  nothingDue: 'Nothing to take today.',
  statement: 'Statement',
  dialog: {
    title: (schemeid: number) => `Installment for Scheme ${schemeid}`,
    customer: 'Customer',
    amount: 'Amount',
    month: 'For the month',
    inAdvance: (month: string) => `${month}, in advance`,
    date: 'Date',
    cancel: 'CANCEL',
    save: 'Save and print',
    saving: 'Saving',
    failed: 'Error in recording installment.',
  },
  addCustomer: 'Add customer',
} as const;
