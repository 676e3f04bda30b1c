import { Writable } from 'node:stream';
import pino from 'pino';
import { API_PATHS, API_PREFIX } from '@kanak/contract';
import { createFieldCipher } from '../src/lib/crypto.js';
import { customersRepo } from '../src/modules/customers/customers.repo.js';
import { createMessagingService } from '../src/modules/messaging/messaging.service.js';
import { createNoticeSender, type SenderOptions } from '../src/modules/notices/notices.sender.js';
import { branchesRepo } from '../src/modules/branches/branches.repo.js';
import { messagingRepo } from '../src/modules/messaging/messaging.repo.js';
import { createNoticesOutbox } from '../src/modules/notices/notices.outbox.js';
import { pointsSummaryReader } from '../src/modules/points/points.summary.js';
import { startFakeWhatsApp, type FakeWhatsApp } from './fake-whatsapp.js';
import {
  lateEntryReason,
  signedIn,
  TEST_SECRETS,
  type SignedIn,
  type SignedInOptions,
} from './helpers.js';

/** The scheme calls dated by the caller: an old date gets the owner's reason, as on screen. */
const DATED_SCHEME_CALLS: readonly string[] = [
  API_PATHS.generateScheme,
  API_PATHS.activateScheme,
  API_PATHS.addInstallment,
];

/** A shop whose three panels all point at a fake provider, with the owner signed in. */
export interface NoticeShop extends SignedIn {
  fake: FakeWhatsApp;
  /** Calls the API as the owner and answers the JSON, failing the test on anything but 200. */
  call<T = unknown>(path: string, payload?: unknown): Promise<T>;
  /** Saves the messaging panel (a token the fake echoes in its refusals). */
  savePanel(panel: 1 | 2 | 3, token?: string): Promise<void>;
  /** A customer, with transactional consent unless told otherwise; answers the custid. */
  customer(mobile: string, name: string, consent?: boolean): Promise<number>;
  consent(custid: number, granted: boolean): Promise<void>;
  /** A sender on this shop's database and fake, quick to give up on a hang. */
  sender(options?: Partial<SenderOptions>): ReturnType<typeof createNoticeSender>;
  /** Everything the sender logged, as text. */
  logged(): string;
  notices(): Promise<NoticeRowForTest[]>;
  close(): Promise<void>;
}

export interface NoticeRowForTest {
  id: number;
  event: string;
  customer_id: number;
  mobile: string | null;
  text: string;
  status: string;
  attempts: number;
  reason: string | null;
  dedupe_key: string | null;
  provider_message_id: string | null;
  not_before: Date;
  sent_at: Date | null;
}

export const PANEL_TOKEN = 'panel-secret-token-7781';

/** The outbox as the app builds it (Kanak Jewellers, Kolkata), with the test's clock and nudge. */
export const testOutbox = (options: { clock?: () => Date; nudge?: () => void } = {}) =>
  createNoticesOutbox({
    customers: customersRepo,
    branches: branchesRepo,
    panel: messagingRepo,
    points: pointsSummaryReader,
    shop: async () => 'Kanak Jewellers',
    timeZone: 'Asia/Kolkata',
    ...options,
  });

export async function noticeShop(options: SignedInOptions = {}): Promise<NoticeShop> {
  const fake = await startFakeWhatsApp();
  const ctx = await signedIn('owner', {
    ...options,
    env: {
      MESSAGING_PANEL1_URL: fake.url,
      MESSAGING_PANEL2_URL: fake.url,
      MESSAGING_PANEL3_URL: fake.url,
      ...options.env,
    },
  });
  let log = '';
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    }),
  );
  const call = async <T>(path: string, payload?: unknown): Promise<T> => {
    const dated = payload as { startdt?: unknown; date?: unknown } | undefined;
    const response =
      payload === undefined
        ? await ctx.inject({ method: 'GET', url: `${API_PREFIX}${path}` })
        : await ctx.post(
            `${API_PREFIX}${path}`,
            DATED_SCHEME_CALLS.includes(path)
              ? {
                  ...dated,
                  ...lateEntryReason(dated?.startdt ?? dated?.date, options.clock?.()),
                }
              : payload,
          );
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.body}`);
    return response.json<T>();
  };
  const shop: NoticeShop = {
    ...ctx,
    fake,
    call,
    async savePanel(panel, token = PANEL_TOKEN) {
      await call(API_PATHS.panelSetup, {
        formData: { instanceid: `instance-${panel}`, token, panel, phone: '9000000099' },
      });
    },
    async consent(custid, granted) {
      await call(API_PATHS.customerConsent, { custid, purpose: 'transactional', granted });
    },
    async customer(mobile, name, consent = true) {
      const { data } = await call<{ data: { custid: number } }>(API_PATHS.saveCustomer, {
        formData: { custid: null, mobileno: mobile, custname: name },
      });
      if (consent) await shop.consent(data.custid, true);
      return data.custid;
    },
    sender: (given = {}) =>
      createNoticeSender({
        db: ctx.database.db,
        panel: createMessagingService({
          db: ctx.database.db,
          cipher: createFieldCipher(TEST_SECRETS.dataKey),
        }),
        customers: customersRepo,
        urls: { 1: fake.url, 2: fake.url, 3: fake.url },
        rate: 1000,
        log: logger,
        timeoutMs: 400,
        ...given,
      }),
    logged: () => log,
    notices: () => ctx.sql<NoticeRowForTest>(`SELECT * FROM notices ORDER BY id`),
    async close() {
      await ctx.close();
      await fake.close();
    },
  };
  return shop;
}
