import {
  LIMITS,
  MEMBER_API_PATHS,
  SIGN_IN_API_PATHS,
  type brandingResponse,
  type ConsentPurpose,
  type memberConsentResponse,
  type memberMeResponse,
  type memberOtpResponse,
  type memberPassbookResponse,
  type memberPaymentVerifyResponse,
  type memberPayResponse,
  type memberPointsResponse,
  type memberVerifyResponse,
  type messageResponse,
} from '@kanak/contract';
import type { z } from 'zod';
import { api } from './http';
import { session } from './session';

/**
 * The portal's calls: the customer's own member API, and the shop's public branding. Answers
 * are typed by the contract's response schemas, the ones the server's routes declare.
 */
export type Answer<Schema extends z.ZodType> = z.infer<Schema>;

export type Me = Answer<typeof memberMeResponse>['data'];
export type MemberScheme = Me['schemes'][number];
export type Passbook = Answer<typeof memberPassbookResponse>['data'];
export type PassbookRow = Passbook['rows'][number];
export type PaymentOrder = Answer<typeof memberPayResponse>['data'];
export type PaymentOutcome = Answer<typeof memberPaymentVerifyResponse>;
export type PointsPage = Answer<typeof memberPointsResponse>;
export type ShopBranding = Answer<typeof brandingResponse>['data'];

const withId = (path: string, schemeid: number) => path.replace(':schemeid', String(schemeid));

export const branding = async () =>
  (await api.get<Answer<typeof brandingResponse>>(SIGN_IN_API_PATHS.branding)).data;

export const askCode = (mobile: string) =>
  api.post<Answer<typeof memberOtpResponse>>(MEMBER_API_PATHS.memberOtp, { mobile });

/** Checks the code; a right one starts the session. */
export async function verifyCode(mobile: string, code: string) {
  const answer = await api.post<Answer<typeof memberVerifyResponse>>(
    MEMBER_API_PATHS.memberVerify,
    { mobile, code },
  );
  session.start(answer.data.token);
}

export const me = async () =>
  (await api.get<Answer<typeof memberMeResponse>>(MEMBER_API_PATHS.memberMe)).data;

export const pointsPage = (page: number) =>
  api.get<Answer<typeof memberPointsResponse>>(`${MEMBER_API_PATHS.memberPoints}?page=${page}`);

export const passbook = async (schemeid: number) =>
  (
    await api.get<Answer<typeof memberPassbookResponse>>(
      withId(MEMBER_API_PATHS.memberScheme, schemeid),
    )
  ).data;

export const consent = (purpose: ConsentPurpose, granted: boolean) =>
  api.post<Answer<typeof memberConsentResponse>>(MEMBER_API_PATHS.memberConsent, {
    purpose,
    granted,
  });

/** An order at the gateway for the scheme's next installment. */
export const payOrder = async (schemeid: number) =>
  (await api.post<Answer<typeof memberPayResponse>>(withId(MEMBER_API_PATHS.memberPay, schemeid)))
    .data;

export const verifyPayment = (response: {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}) =>
  api.post<Answer<typeof memberPaymentVerifyResponse>>(
    MEMBER_API_PATHS.memberPaymentVerify,
    response,
  );

/**
 * Signs out: the server ends the token (so a copy of it stops working too), then this phone
 * forgets it. A slow or failed call never keeps the customer signed in.
 */
export async function signOut(notice: string) {
  const ended = api.post<Answer<typeof messageResponse>>(MEMBER_API_PATHS.memberLogout);
  const answer = await Promise.race([
    ended.then(
      (body) => body.message ?? notice,
      () => notice,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve(notice), LIMITS.logoutTimeoutMs)),
  ]);
  session.end(answer);
}
