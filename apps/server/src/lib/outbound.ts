/**
 * Every request Kanak makes to another server (Tally, the payment gateway, the WhatsApp
 * providers) goes through `callOutbound`, so none of them can be led elsewhere or made to wait
 * or to read without end by whoever answers at the configured address:
 * - a redirect is never followed: a 3xx is a failure and nothing is sent to its Location (a 307
 *   would send the same body on: vouchers with customers' names and mobiles, a token);
 * - one deadline covers connecting, the headers and the whole answer, so an answer that starts
 *   and never ends is given up like one that never starts;
 * - the answer is read as it arrives, up to `maxBytes` (a larger Content-Length is refused
 *   before reading): past the cap the reading stops and the connection is closed, so a flood
 *   never sits in memory.
 * A failure is an `OutboundError` whose words hold no address: a provider's address may carry
 * its token.
 */

export interface OutboundLimits {
  /** Connecting, the headers and the whole answer, together. */
  timeoutMs: number;
  /** The longest answer read, in bytes. */
  maxBytes: number;
}

export interface OutboundAnswer {
  status: number;
  headers: Headers;
  /** The answer as UTF-8 text. */
  text: string;
}

/** Why a call failed: each caller says it in its own words. */
export type OutboundFailure = 'timeout' | 'redirected' | 'tooLong' | 'unreachable';

export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    /** The status answered, when the headers came before the failure. */
    readonly status: number | null,
    /** The network's code for an unreachable server (ECONNREFUSED, ENOTFOUND). */
    readonly code?: string,
  ) {
    super(
      failure === 'timeout'
        ? 'no whole answer in time'
        : failure === 'redirected'
          ? `answered ${status}, a redirect: not followed`
          : failure === 'tooLong'
            ? `answered ${status} with too long an answer: not read`
            : `not reachable: ${code ?? 'network error'}`,
    );
    this.name = 'OutboundError';
  }
}

type OutboundInit = Pick<RequestInit, 'method' | 'headers' | 'body'>;

export async function callOutbound(
  url: string,
  init: OutboundInit,
  { timeoutMs, maxBytes }: OutboundLimits,
): Promise<OutboundAnswer> {
  // The same signal aborts the connection, the wait for headers and every read of the body.
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal });
  } catch (error) {
    throw failureOf(error, null);
  }
  const { status, headers } = response;
  const refuse = async (failure: OutboundFailure) => {
    await response.body?.cancel().catch(() => {});
    return new OutboundError(failure, status);
  };
  if (status >= 300 && status < 400) throw await refuse('redirected');
  const declared = Number(headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) throw await refuse('tooLong');
  if (!response.body) return { status, headers, text: '' };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new OutboundError('tooLong', status);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    await reader.cancel().catch(() => {});
    throw failureOf(error, status);
  }
  return { status, headers, text: Buffer.concat(chunks).toString('utf8') };
}

function failureOf(error: unknown, status: number | null) {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return new OutboundError('timeout', status);
  return new OutboundError('unreachable', status, codeOf(error));
}

/**
 * fetch says only "fetch failed"; the reason is its cause's code (ECONNREFUSED, ENOTFOUND). Its
 * message is not kept: it may name the address, and the address may hold a token.
 */
function codeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = cause?.code ?? (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : 'network error';
}
