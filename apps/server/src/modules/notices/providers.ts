import { isPanelInstanceId, isPanelToken, NOTICE_MESSAGES } from '@kanak/contract';
import { callOutbound, OutboundError, type OutboundAnswer } from '../../lib/outbound.js';

/** The saved messaging panel, its token readable: what a send needs. */
export interface PanelSettings {
  panel: 1 | 2 | 3;
  instanceId: string;
  token: string;
}

/** Each panel's provider address (config), panel 3's unset until the shop names its reseller. */
export type PanelUrls = Record<1 | 2 | 3, string | undefined>;

export type SendResult =
  | { sent: true; status: number; messageId: string | null }
  | {
      sent: false;
      /** The provider's HTTP status; null when it never answered. */
      status: number | null;
      /** Why, in the Delivery Log's words: never the provider's own (they may echo the token). */
      reason: string;
      /** A 429's Retry-After, in seconds. */
      retryAfterSeconds?: number;
    };

/** An answer is read up to this many bytes: a panel's "done" is a few dozen. */
export const ANSWER_MAX_BYTES = 64 * 1024;
/** A Retry-After beyond a day is a provider's mistake, not a plan. */
const RETRY_AFTER_MAX_SECONDS = 24 * 60 * 60;
/** A provider's message id is kept only when it looks like one: short, plain characters. */
const MESSAGE_ID = /^[A-Za-z0-9._:@-]{1,100}$/;

/**
 * One WhatsApp text to an Indian mobile number through the saved panel's provider:
 *   Panel 1 (UltraMsg-style): POST {url}/{instanceId}/messages/chat, JSON { token, to: "+91…",
 *     body } → { sent: "true", id }.
 *   Panel 2 (Green-API-style): POST {url}/waInstance{instanceId}/sendMessage/{token}, JSON
 *     { chatId: "91…@c.us", message } → { idMessage }.
 *   Panel 3 (instance id and access token panels): GET {url}/api/send?number=91…&type=text
 *     &message=…&instance_id=…&access_token=… → { status: "success" }.
 * Anything else is a failure: another answer, a 4xx or 5xx, a 429 (its Retry-After kept), no
 * whole answer within `timeoutMs`. The request goes to the configured address only (through
 * `callOutbound`): a redirect is a failure, not followed (it could lead anywhere, the token with
 * it), and at most ANSWER_MAX_BYTES of an answer are read. The reason of a failure is ours, with
 * the provider's status: what the provider wrote is never kept, since it may echo the token in
 * any spelling.
 */
export async function sendWhatsApp(
  settings: PanelSettings,
  urls: PanelUrls,
  mobile: string,
  text: string,
  { timeoutMs }: { timeoutMs: number },
): Promise<SendResult> {
  const base = urls[settings.panel];
  if (!base)
    return { sent: false, status: null, reason: NOTICE_MESSAGES.panelHasNoUrl(settings.panel) };
  // Saved before the panel form checked them: they could lead the request off its path.
  if (!isPanelInstanceId(settings.instanceId) || !isPanelToken(settings.token))
    return { sent: false, status: null, reason: NOTICE_MESSAGES.panelSettingsInvalid };
  const { url, init } = requestFor(settings, base, mobile, text);
  let answer: OutboundAnswer;
  try {
    answer = await callOutbound(url, init, { timeoutMs, maxBytes: ANSWER_MAX_BYTES });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return failedCall(error, timeoutMs);
  }
  const { status } = answer;
  const failed = (reason: string) => failure(status, reason, answer.headers);
  if (status < 200 || status >= 300) return failed(NOTICE_MESSAGES.providerRefused(status));
  const accepted = acceptedBy(settings.panel, answer.text);
  if (!accepted) return failed(NOTICE_MESSAGES.providerNotSent);
  return { sent: true, status, messageId: accepted.messageId };
}

/** A failed attempt, a 429's Retry-After kept. */
function failure(status: number | null, reason: string, headers?: Headers): SendResult {
  return {
    sent: false,
    status,
    reason,
    ...(status === 429
      ? { retryAfterSeconds: retryAfterSeconds(headers?.get('retry-after') ?? null) }
      : {}),
  };
}

/** A call that got no whole answer, in the Delivery Log's words. */
function failedCall(error: OutboundError, timeoutMs: number): SendResult {
  const { status } = error;
  switch (error.failure) {
    case 'timeout':
      return failure(status, NOTICE_MESSAGES.providerTimeout(timeoutMs / 1000));
    case 'unreachable':
      return failure(null, NOTICE_MESSAGES.providerUnreachable(error.code ?? 'network error'));
    case 'redirected':
      return failure(status, NOTICE_MESSAGES.providerRedirected);
    case 'tooLong':
      return failure(status, NOTICE_MESSAGES.providerAnswerTooLong(ANSWER_MAX_BYTES / 1024));
  }
}

function requestFor(settings: PanelSettings, base: string, mobile: string, text: string) {
  const { instanceId, token } = settings;
  const json = (body: object): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  switch (settings.panel) {
    case 1:
      return {
        url: `${base}/${encodeURIComponent(instanceId)}/messages/chat`,
        init: json({ token, to: `+91${mobile}`, body: text }),
      };
    case 2:
      return {
        url: `${base}/waInstance${encodeURIComponent(instanceId)}/sendMessage/${encodeURIComponent(token)}`,
        init: json({ chatId: `91${mobile}@c.us`, message: text }),
      };
    case 3: {
      const query = new URLSearchParams({
        number: `91${mobile}`,
        type: 'text',
        message: text,
        instance_id: instanceId,
        access_token: token,
      });
      return { url: `${base}/api/send?${query}`, init: { method: 'GET' } };
    }
  }
}

/** The provider's "done" in its own words, with its message id when it gives one. */
function acceptedBy(panel: 1 | 2 | 3, body: string): { messageId: string | null } | undefined {
  let answer: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(body);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    answer = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const idOf = (value: unknown) =>
    (typeof value === 'string' || typeof value === 'number') && MESSAGE_ID.test(String(value))
      ? String(value)
      : null;
  switch (panel) {
    case 1:
      return answer.sent === 'true' || answer.sent === true
        ? { messageId: idOf(answer.id) }
        : undefined;
    case 2:
      return typeof answer.idMessage === 'string' && answer.idMessage !== ''
        ? { messageId: idOf(answer.idMessage) }
        : undefined;
    case 3:
      return answer.status === 'success'
        ? { messageId: idOf(answer.message_id ?? answer.id) }
        : undefined;
  }
}

/** Seconds, or an HTTP date; none or nonsense: undefined (the usual backoff then applies). */
function retryAfterSeconds(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header.trim())
    ? Number(header.trim())
    : (Date.parse(header) - Date.now()) / 1000;
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(Math.max(Math.ceil(seconds), 0), RETRY_AFTER_MAX_SECONDS);
}
