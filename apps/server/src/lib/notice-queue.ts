import type { NoticeEvent } from '@kanak/contract';
import type { Tx } from '../db/client.js';

/**
 * What a change tells its customer, beyond who they are (the outbox reads the name, the mobile
 * number and the points balance itself, in the change's own transaction: the balance after it).
 */
export interface NoticeFacts {
  /** Points of this entry; an adjustment's with its sign ("+50", "-20"). */
  points?: number | string;
  /** Rupees: an installment, a scheme's amount. */
  amount?: number;
  receipt?: string;
  /** Installments paid so far, and in the scheme. */
  paid?: number;
  total?: number;
  /** A due, maturity or expiry date, `YYYY-MM-DD`. */
  dueDate?: string;
  /** The tier reached, by its name. */
  tier?: string;
}

export interface NoticeRequest {
  event: NoticeEvent;
  customerId: number;
  /** Where the change was made; none for a digest of the whole account. */
  branchId: number | null;
  facts: NoticeFacts;
  /** Reminders and digests: the same key is never queued twice. */
  dedupeKey?: string;
}

/** How many notice rows were written, and how many of them wait to be sent. */
export interface QueuedNotices {
  written: number;
  queued: number;
}

/**
 * What a service that changes data needs to tell the customer: queue, in its transaction. The
 * notices module's outbox implements it; the points and schemes services are handed it, so
 * they know the notices only by this type, not by importing the module that sends them.
 */
export interface NoticeQueue {
  /** Queues one notice in the caller's transaction. */
  queue(tx: Tx, request: NoticeRequest): Promise<QueuedNotices>;
  /** Queues several in the caller's transaction, reading what they share once. */
  queueMany(tx: Tx, requests: NoticeRequest[]): Promise<QueuedNotices>;
}
