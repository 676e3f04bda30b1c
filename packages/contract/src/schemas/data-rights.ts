import { z } from 'zod';
import { CONSENT_PURPOSES } from '../data-rights.js';
import { dataResponse } from './common.js';
import { customerRecord } from './customers.js';

/** The largest id of an `integer` column; a bigger custid would be a database error, not a 404. */
const MAX_ID = 2_147_483_647;
const custidRule = 'Choose the customer again: the customer number sent is not valid.';

/** A customer id, as a number or a string of digits (a query string's). */
export const custid = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, { error: custidRule })], {
    error: custidRule,
  })
  .transform((value) => Number(value))
  .refine((value) => Number.isInteger(value) && value > 0 && value <= MAX_ID, {
    error: custidRule,
  });

export const consentPurpose = z.enum(CONSENT_PURPOSES, {
  error: `Purpose must be one of: ${CONSENT_PURPOSES.join(', ')}.`,
});

export const consentRequest = z.object({
  custid,
  purpose: consentPurpose,
  granted: z.boolean({ error: 'Choose yes or no.' }),
});
export type ConsentRequest = z.input<typeof consentRequest>;

/** Each purpose's current choice: false until a grant is recorded. */
export const consentState = z.object({ transactional: z.boolean(), marketing: z.boolean() });
export type ConsentState = z.infer<typeof consentState>;

/** One grant or withdrawal: who recorded it, when, how, under which notice. */
export const consentEvent = z.object({
  purpose: consentPurpose,
  granted: z.boolean(),
  method: z.string(),
  noticeVersion: z.string(),
  recordedBy: z.string(),
  recordedAt: z.string(),
});
export type ConsentEvent = z.infer<typeof consentEvent>;

/** The current choices and every grant and withdrawal, newest first. */
export const consentsWithHistory = z.object({
  consents: consentState,
  consentHistory: z.array(consentEvent),
});
export type ConsentsWithHistory = z.infer<typeof consentsWithHistory>;

/** The balance's worth in rupees (rules in force) and the points expiring within 30 days. */
export const pointsSummary = z.object({
  pointsValue: z.number(),
  pointsExpiringIn30Days: z.number(),
});
export type PointsSummary = z.infer<typeof pointsSummary>;

/** The profile as get-customer-data and update-customer-data answer it. */
export const customerProfile = customerRecord
  .extend(consentsWithHistory.shape)
  .extend(pointsSummary.shape);
export type CustomerProfile = z.infer<typeof customerProfile>;
export const customerProfileResponse = dataResponse(customerProfile);

export const consentResponse = dataResponse(consentsWithHistory);

export const dataExportQuery = z.object({ custid });

export const customerDataExport = z.object({
  exportedAt: z.string(),
  noticeVersion: z.string(),
  profile: customerRecord.extend({ erasedAt: z.string().nullable() }),
  consents: consentState,
  consentHistory: z.array(consentEvent),
  pointsLedger: z.array(
    z.object({
      mrn: z.number(),
      date: z.string(),
      narration: z.string(),
      credit: z.number(),
      debit: z.number(),
      saleAmountPaise: z.number(),
      source: z.string(),
      createdAt: z.string(),
    }),
  ),
  schemes: z.array(
    z.object({
      schemeId: z.number(),
      status: z.string(),
      startDate: z.string(),
      maturityDate: z.string(),
      amount: z.number(),
      installmentCount: z.number(),
      bonus: z.number().nullable(),
      maturityValue: z.number().nullable(),
      installments: z.array(
        z.object({
          /** None for an installment brought in from other software. */
          receiptNo: z.number().nullable(),
          paidOn: z.string(),
          amount: z.number(),
          mode: z.string(),
          reference: z.string(),
          narration: z.string(),
        }),
      ),
    }),
  ),
  /** The WhatsApp notices the provider took for the customer, oldest first. */
  noticesSent: z.array(z.object({ event: z.string(), text: z.string(), sentAt: z.string() })),
});
export type CustomerDataExport = z.infer<typeof customerDataExport>;
export const customerDataExportResponse = dataResponse(customerDataExport);

/**
 * The customer's own copy, asked for from their phone: their data without the staff's (who
 * recorded a consent) or the shop's internal narrations.
 */
const { pointsLedger, schemes } = customerDataExport.shape;
export const memberDataExport = customerDataExport.extend({
  consentHistory: z.array(consentEvent.omit({ recordedBy: true })),
  pointsLedger: z.array(pointsLedger.element.omit({ narration: true })),
  schemes: z.array(
    schemes.element.extend({
      installments: z.array(schemes.element.shape.installments.element.omit({ narration: true })),
    }),
  ),
});
export type MemberDataExport = z.infer<typeof memberDataExport>;
export const memberDataExportResponse = dataResponse(memberDataExport);

export const eraseRequest = z.object({ custid });
export const eraseResponse = dataResponse(
  z.object({ custid: z.number(), erasedAt: z.string(), alreadyErased: z.boolean() }),
);
