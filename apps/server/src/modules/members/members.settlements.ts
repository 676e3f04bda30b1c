import { z } from 'zod';
import { OutboundError } from '../../lib/outbound.js';
import {
  razorpayClient,
  RazorpayStatusError,
  type RazorpayReconItem,
  type RazorpaySettings,
} from './razorpay.js';

/**
 * Razorpay's settlements (its payouts of captured payments to the shop's bank, net of its fee
 * and the GST on that fee) as the books need them: every processed settlement created in a span
 * of time, read page by page through the Settlements API, and what one day's settlement recon
 * says each settlement held. Razorpay's rate limiter answers 429: a call so answered is tried
 * again after a growing, slightly random wait, as Razorpay asks, a few times before giving up.
 */

/** Razorpay's largest page of settlements. */
export const SETTLEMENTS_PAGE = 100;
/** Razorpay's largest page of the settlement recon. */
export const RECON_PAGE = 1000;
/** Waits before each new try of a call Razorpay's rate limiter turned away. */
const RETRY_WAITS_MS = [300, 600, 1_200, 2_400];
/** The spread added to each wait, so instances turned away together do not return together. */
const JITTER_MS = 250;
/** Pages read at most for one span: a year of daily payouts is 4 pages. */
const MAX_PAGES = 100;

export interface GatewaySettlement {
  id: string;
  amountPaise: number;
  /** Razorpay's fee with the GST on it. */
  feesPaise: number;
  /** The GST on the fee. */
  taxPaise: number;
  utr: string | null;
  settledAt: Date;
}

/** What one settlement held, by the recon of its day. */
export interface SettlementContents {
  payments: number;
  paymentsPaise: number;
  refundsPaise: number;
}

/** Why Razorpay's settlements could not be read: each caller says it in its own words. */
export type GatewayFailure =
  'limited' | 'refused' | 'timeout' | 'redirected' | 'badAnswer' | 'unreachable';

export class GatewaySettlementsError extends Error {
  constructor(readonly failure: GatewayFailure) {
    super(`razorpay settlements: ${failure}`);
    this.name = 'GatewaySettlementsError';
  }
}

export interface GatewaySettlements {
  /** The processed settlements created from `from` to `to` (Unix seconds, both included). */
  processedBetween(from: number, to: number): Promise<GatewaySettlement[]>;
  /** What each settlement of the day (YYYY-MM-DD, Razorpay's day) held. */
  contentsOfDay(day: string): Promise<Map<string, SettlementContents>>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The reader, or undefined when this server has no Razorpay keys. */
export function createGatewaySettlements(
  razorpay: RazorpaySettings,
  options: { waits?: number[] } = {},
): GatewaySettlements | undefined {
  const { keyId, keySecret } = razorpay;
  if (!keyId || !keySecret) return undefined;
  const client = razorpayClient({ ...razorpay, keyId, keySecret });
  const waits = options.waits ?? RETRY_WAITS_MS;

  async function withRetries<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (
          error instanceof RazorpayStatusError &&
          error.status === 429 &&
          attempt < waits.length
        ) {
          await sleep(waits[attempt]! + Math.random() * JITTER_MS);
          continue;
        }
        throw failureOf(error);
      }
    }
  }

  return {
    async processedBetween(from, to) {
      const found = new Map<string, GatewaySettlement>();
      for (let page = 0; page < MAX_PAGES; page++) {
        const items = await withRetries(() =>
          client.settlements({ from, to, count: SETTLEMENTS_PAGE, skip: page * SETTLEMENTS_PAGE }),
        );
        for (const item of items) {
          // Created and failed ones have not reached the bank (a failed one is tried again).
          if (item.status !== 'processed') continue;
          found.set(item.id, {
            id: item.id,
            amountPaise: item.amount,
            feesPaise: item.fees,
            taxPaise: item.tax,
            utr: item.utr ?? null,
            settledAt: new Date(item.created_at * 1000),
          });
        }
        if (items.length < SETTLEMENTS_PAGE) break;
      }
      return [...found.values()];
    },

    async contentsOfDay(day) {
      const [year, month, date] = day.split('-').map(Number) as [number, number, number];
      const contents = new Map<string, SettlementContents>();
      const add = (item: RazorpayReconItem) => {
        if (!item.settlement_id) return;
        const held = contents.get(item.settlement_id) ?? {
          payments: 0,
          paymentsPaise: 0,
          refundsPaise: 0,
        };
        if (item.type === 'payment') {
          held.payments += 1;
          held.paymentsPaise += item.amount;
        } else if (item.type === 'refund') held.refundsPaise += item.amount;
        contents.set(item.settlement_id, held);
      };
      for (let page = 0; page < MAX_PAGES; page++) {
        const items = await withRetries(() =>
          client.settlementRecon({
            year,
            month,
            day: date,
            count: RECON_PAGE,
            skip: page * RECON_PAGE,
          }),
        );
        items.forEach(add);
        if (items.length < RECON_PAGE) break;
      }
      return contents;
    },
  };
}

/** A failure in the words of this reader; anything else (a fault of Kanak's own) as it was. */
function failureOf(error: unknown): unknown {
  if (error instanceof GatewaySettlementsError) return error;
  if (error instanceof RazorpayStatusError)
    return new GatewaySettlementsError(
      error.status === 429 ? 'limited' : error.status < 500 ? 'refused' : 'unreachable',
    );
  if (error instanceof OutboundError)
    return new GatewaySettlementsError(
      error.failure === 'tooLong'
        ? 'badAnswer'
        : error.failure === 'redirected'
          ? 'redirected'
          : error.failure,
    );
  // Not JSON, or not Razorpay's shapes.
  if (error instanceof SyntaxError || error instanceof z.ZodError)
    return new GatewaySettlementsError('badAnswer');
  return error;
}
