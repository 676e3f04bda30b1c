import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { WHATSAPP_TEMPLATE_CATEGORIES, type WhatsAppTemplate } from '@kanak/contract';
import { callOutbound, OutboundError } from '../../lib/outbound.js';

export interface GraphOptions {
  /** Meta's Graph API, without a trailing slash (WHATSAPP_GRAPH_URL). */
  url: string;
  /** `v25.0` (WHATSAPP_GRAPH_VERSION). */
  version: string;
  timeoutMs: number;
  /**
   * The waits before each try again of a throttled call, in order; as many tries again as
   * there are waits. Meta's Retry-After, when it sends one, counts instead (up to a minute).
   */
  retryDelaysMs?: readonly number[];
}

/** Why a call to Meta failed, for the caller to say in its own words. */
export type GraphFailure =
  /** Meta's error 190: the access token expired or was revoked. */
  | 'tokenInvalid'
  /** Still throttled after the tries again. */
  | 'throttled'
  /** Any other refusal: `reason` holds Meta's message. */
  | 'refused'
  | 'unreachable'
  /** An answer that is no Graph API answer, or that leads off Meta's address. */
  | 'unreadable'
  /** More templates than a sync keeps. */
  | 'tooMany';

export class GraphError extends Error {
  constructor(
    readonly failure: GraphFailure,
    /** Meta's error code, when it sent one. */
    readonly code: number | null = null,
    /** Meta's own words for a refusal, cleaned and cut short. */
    readonly reason = '',
  ) {
    super(`graph: ${failure}${code === null ? '' : ` (${code})`}`);
    this.name = 'GraphError';
  }
}

/** Meta's "too many requests": an app's, a business account's, a number's, a pair's. */
const THROTTLE_CODES = new Set([4, 17, 32, 613, 80007, 130429, 131056]);
const TOKEN_INVALID = 190;
const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 4_000];
const RETRY_AFTER_MAX_MS = 60_000;
/** One page of templates is a few hundred KB at most. */
const ANSWER_MAX_BYTES = 2 * 1024 * 1024;
/** Meta lets a business account hold some thousands of templates; more is no real account. */
export const TEMPLATES_MAX = 10_000;
const PAGE_SIZE = 100;
const PAGES_MAX = Math.ceil(TEMPLATES_MAX / PAGE_SIZE) + 1;

const graphError = z.looseObject({
  error: z.looseObject({ code: z.number().optional(), message: z.string().optional() }),
});

const templatesPage = z.looseObject({
  data: z.array(
    z.looseObject({
      name: z.string().min(1).max(512),
      language: z.string().min(1).max(20),
      category: z.string().max(50),
      status: z.string().min(1).max(50),
      components: z
        .array(z.looseObject({ type: z.string(), text: z.string().optional() }))
        .optional(),
    }),
  ),
  paging: z.looseObject({ next: z.string().optional() }).optional(),
});

/** How many distinct placeholders (`{{1}}`, or a named `{{name}}`) a template's body has. */
export function parametersOf(body: string | undefined): number {
  const names = [...(body ?? '').matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((m) => m[1]);
  return new Set(names).size;
}

/** Meta's words, one line, no longer than a sentence or two. */
const cleaned = (message: string | undefined) =>
  (message ?? '')
    .replace(/\p{Cc}+/gu, ' ')
    .trim()
    .slice(0, 300);

/**
 * WhatsApp's Cloud API (Meta's Graph API), each call through `callOutbound`: a redirect is a
 * failure, one deadline covers the whole answer, answers are read up to a cap. A throttled
 * call (HTTP 429, or one of Meta's rate-limit codes) waits and is tried again a bounded number
 * of times. The bearer token goes to the configured address only: a `paging.next` elsewhere
 * is not followed.
 */
export function createGraphClient(options: GraphOptions) {
  const origin = new URL(options.url).origin;
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;

  async function call(url: string, accessToken: string): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      let answer;
      try {
        answer = await callOutbound(
          url,
          { method: 'GET', headers: { authorization: `Bearer ${accessToken}` } },
          { timeoutMs: options.timeoutMs, maxBytes: ANSWER_MAX_BYTES },
        );
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        throw new GraphError(error.failure === 'unreachable' ? 'unreachable' : 'unreadable');
      }
      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        body = undefined;
      }
      const refusal = graphError.safeParse(body);
      const ok = answer.status >= 200 && answer.status < 300;
      if (ok && body === undefined) throw new GraphError('unreadable');
      if (ok && !refusal.success) return body;
      const code = refusal.success ? (refusal.data.error.code ?? null) : null;
      if (code === TOKEN_INVALID) throw new GraphError('tokenInvalid', code);
      const throttled = answer.status === 429 || (code !== null && THROTTLE_CODES.has(code));
      if (!throttled)
        throw new GraphError(
          refusal.success ? 'refused' : 'unreadable',
          code,
          refusal.success ? cleaned(refusal.data.error.message) : '',
        );
      const delay = delays[attempt];
      if (delay === undefined) throw new GraphError('throttled', code);
      const retryAfter = Number(answer.headers.get('retry-after') ?? Number.NaN) * 1000;
      await sleep(
        Number.isFinite(retryAfter) && retryAfter >= 0
          ? Math.min(retryAfter, RETRY_AFTER_MAX_MS)
          : delay,
      );
    }
  }

  return {
    /**
     * Every message template of the business account, page after page (`paging.next`), with
     * its body's parameter count. Templates of a category Kanak does not send (Meta's older
     * ones) are left out.
     */
    async templates(businessAccountId: string, accessToken: string): Promise<WhatsAppTemplate[]> {
      const fields = 'name,language,category,status,components';
      let url: string | undefined =
        `${options.url}/${options.version}/${encodeURIComponent(businessAccountId)}` +
        `/message_templates?fields=${fields}&limit=${PAGE_SIZE}`;
      const found: WhatsAppTemplate[] = [];
      for (let page = 0; url !== undefined; page++) {
        if (page >= PAGES_MAX) throw new GraphError('tooMany');
        const parsed = templatesPage.safeParse(await call(url, accessToken));
        if (!parsed.success) throw new GraphError('unreadable');
        for (const template of parsed.data.data) {
          const category = WHATSAPP_TEMPLATE_CATEGORIES.find((c) => c === template.category);
          if (!category) continue;
          found.push({
            name: template.name,
            language: template.language,
            category,
            status: template.status,
            parameters: parametersOf(
              template.components?.find((c) => c.type.toUpperCase() === 'BODY')?.text,
            ),
          });
        }
        if (found.length > TEMPLATES_MAX) throw new GraphError('tooMany');
        url = parsed.data.paging?.next;
        if (url !== undefined && !sameOrigin(url, origin)) throw new GraphError('unreadable');
      }
      return found;
    },
  };
}
export type GraphClient = ReturnType<typeof createGraphClient>;

function sameOrigin(url: string, origin: string) {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
