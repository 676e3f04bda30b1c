import { z } from 'zod';
import { dataResponse } from './common.js';
import { mobileOnFile } from './customers.js';
import { SCHEME_PLAN_KINDS } from './scheme-plans.js';
import { tierStanding } from './tier-standing.js';

/** The customer chosen at the counter, by their mobile number. */
export const counterCustomerRequest = z.object({ mobile: mobileOnFile });

/** One of the customer's running (Active) schemes, as the counter takes its installment. */
export const counterScheme = z.object({
  schemeid: z.number(),
  /** The plan the scheme runs on; null for the standard scheme (STD). */
  plan: z
    .object({ code: z.string(), name: z.string(), kind: z.enum(SCHEME_PLAN_KINDS) })
    .nullable(),
  /** The installment, whole rupees. */
  amount: z.number(),
  installments: z.number(),
  paid: z.number(),
  startdt: z.string(),
  matdt: z.string(),
  /** The day the oldest unpaid installment fell or falls due; null once all are paid. */
  nextDue: z.string().nullable(),
  /** Installments unpaid past their grace days, as the overdue report counts them. */
  overdue: z.number(),
  /**
   * What the counter may take today, by the rule add-installment applies: the month (YYYY-MM)
   * and whether it is taken in advance (`advance: true` to send). Null when nothing may be.
   */
  due: z.object({ month: z.string(), advance: z.boolean() }).nullable(),
});
export type CounterScheme = z.infer<typeof counterScheme>;

export const counterCustomerData = z.object({
  custid: z.number(),
  custname: z.string(),
  mobileno: z.string(),
  points: z.object({
    balance: z.number(),
    /** The balance's worth in rupees, at the rules in force. */
    value: z.number(),
    /** Points of the lots expiring within the warning days (30). */
    expiringSoon: z.number(),
    /** Those lots' points by the day they expire, soonest first. */
    expiring: z.array(z.object({ points: z.number(), expiresOn: z.string() })),
  }),
  /** Where the customer stands among the tiers; left out while no tiers are set. */
  tier: tierStanding.optional(),
  /** Running schemes, newest first. */
  schemes: z.array(counterScheme),
});
export type CounterCustomer = z.infer<typeof counterCustomerData>;
export const counterCustomerResponse = dataResponse(counterCustomerData);
