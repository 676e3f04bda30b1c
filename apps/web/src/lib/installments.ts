import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { API_PATHS, type activateSchemeRequest, type receiptResponse } from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from './api';
import { useChange } from './change';
import { refetchAfterChange } from './query-client';

/*
 * Payments into a scheme, wherever the counter takes them (Scheme Statement, the counter
 * home): one call, one Idempotency-Key per press (useChange), the receipt in the answer.
 */

/** The first key of every scheme read: a payment asks them all again. */
export const schemesKey = ['schemes'] as const;

/** An activation or an installment as sent. */
export type PaymentForm = z.output<typeof activateSchemeRequest>;

/** POST an activation or an installment with the action's key; answers the receipt. */
export async function postPayment(
  path: string,
  form: PaymentForm & { advance?: boolean },
  key: string,
) {
  const { data } = await api.post<Answer<typeof receiptResponse>>(
    path,
    form,
    withIdempotencyKey(key),
  );
  const body = expectSuccess(data);
  return { message: body.message ?? '', receipt: body.data };
}

/** After any change: every scheme list, statement and summary on screen asks again. */
export function useRefreshSchemes() {
  const queryClient = useQueryClient();
  return () => refetchAfterChange(queryClient, schemesKey);
}

/**
 * POST /api/scheme/add-installment; `advance` takes the next month's early. `failed` is the
 * screen's words for a call that could not be made, told as the app's alert.
 */
export function useAddInstallment(failed: string) {
  const refresh = useRefreshSchemes();
  return useChange(
    (form: PaymentForm & { advance?: boolean }, key: string) =>
      postPayment(API_PATHS.addInstallment, form, key),
    { onSuccess: refresh, failed, unmadeAsAlert: true },
  );
}
