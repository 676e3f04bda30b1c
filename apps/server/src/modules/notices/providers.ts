import { NOTICE_MESSAGES } from '@kanak/contract';

/** The saved messaging panel, its token readable: what a send needs. */
export interface PanelSettings {
  panel: 1 | 2 | 3;
  instanceId: string;
  token: string;
}

/** Each panel's provider address (config), panel 3's unset until the shop names its reseller. */
export type PanelUrls = Record<1 | 2 | 3, string | undefined>;

export type SendResult =
  | { sent: true; status: number; answer: string; messageId: string | null }
  | {
      sent: false;
      /** The provider's HTTP status; null when it never answered. */
      status: number | null;
      /** What the provider answered, or why nothing was sent. */
      answer: string;
      /** The same in the words of the Delivery Log's reason column. */
      reason: string;
      /** A 429's Retry-After, in seconds. */
      retryAfterSeconds?: number;
    };

/** An answer is kept to this many characters: enough to read an error, never a whole page. */
const ANSWER_MAX = 300;
/** A Retry-After beyond a day is a provider's mistake, not a plan. */
const RETRY_AFTER_MAX_SECONDS = 24 * 60 * 60;
/** Shorter tokens are not redacted: replacing two letters everywhere would garble answers. */
const REDACT_FROM_LENGTH = 4;
const TOKEN_SHOWN_AS = '[token]';

/**
 * One WhatsApp text to an Indian mobile number through the saved panel's provider:
 *   Panel 1 (UltraMsg-style): POST {url}/{instanceId}/messages/chat, JSON { token, to: "+91…",
 *     body } → { sent: "true", id }.
 *   Panel 2 (Green-API-style): POST {url}/waInstance{instanceId}/sendMessage/{token}, JSON
 *     { chatId: "91…@c.us", message } → { idMessage }.
 *   Panel 3 (instance id and access token panels): GET {url}/api/send?number=91…&type=text
 *     &message=…&instance_id=…&access_token=… → { status: "success" }.
 * Anything else is a failure: another answer, a 4xx or 5xx, a 429 (its Retry-After kept), no
 * answer within `timeoutMs`. The token never leaves in an answer or a reason: the provider's
 * words are cut short and every spelling of the token in them replaced.
 */
export async function sendWhatsApp(
  settings: PanelSettings,
  urls: PanelUrls,
  mobile: string,
  text: string,
  { timeoutMs }: { timeoutMs: number },
): Promise<SendResult> {
  const base = urls[settings.panel];
  if (!base) {
    const answer = NOTICE_MESSAGES.panelHasNoUrl(settings.panel);
    return { sent: false, status: null, answer, reason: answer };
  }
  const hide = redactor(settings.token);
  const { url, init } = requestFor(settings, base, mobile, text);
  let status: number;
  let body: string;
  let retryAfter: string | null;
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    status = response.status;
    retryAfter = response.headers.get('retry-after');
    body = await response.text();
  } catch (error) {
    const answer = isTimeout(error)
      ? NOTICE_MESSAGES.providerTimeout(timeoutMs / 1000)
      : NOTICE_MESSAGES.providerUnreachable(hide(causeOf(error)));
    return { sent: false, status: null, answer, reason: answer };
  }
  const answer = hide(body.trim()).slice(0, ANSWER_MAX);
  const accepted = status >= 200 && status < 300 ? acceptedBy(settings.panel, body) : undefined;
  if (accepted) return { sent: true, status, answer, messageId: accepted.messageId };
  return {
    sent: false,
    status,
    answer,
    reason: NOTICE_MESSAGES.providerRefused(status, answer),
    ...(status === 429 ? { retryAfterSeconds: retryAfterSeconds(retryAfter) } : {}),
  };
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
    typeof value === 'string' || typeof value === 'number' ? String(value) : null;
  switch (panel) {
    case 1:
      return answer.sent === 'true' || answer.sent === true
        ? { messageId: idOf(answer.id) }
        : undefined;
    case 2:
      return typeof answer.idMessage === 'string' && answer.idMessage !== ''
        ? { messageId: answer.idMessage }
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

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/** fetch says only "fetch failed"; the reason (refused, unknown host) is its cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

/** Every spelling of the token a provider may echo: as typed, URL-encoded, form-encoded. */
function redactor(token: string): (text: string) => string {
  if (token.length < REDACT_FROM_LENGTH) return (text) => text;
  const spellings = [
    ...new Set([
      token,
      encodeURIComponent(token),
      new URLSearchParams({ t: token }).toString().slice(2),
      JSON.stringify(token).slice(1, -1),
    ]),
  ].sort((a, b) => b.length - a.length);
  return (text) =>
    spellings.reduce((out, spelling) => out.split(spelling).join(TOKEN_SHOWN_AS), text);
}
