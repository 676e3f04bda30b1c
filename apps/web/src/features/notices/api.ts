import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  TEMPLATE_TEXTS,
  type NoticeTemplate,
  type NoticesQuery,
  type SaveNoticeTemplateRequest,
  type noticeTemplatesResponse,
  type noticesResponse,
  type resendNoticeResponse,
  type saveNoticeTemplateResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';
import { refetchAfterChange } from '../../lib/query-client';

const templatesKey = ['notice-templates'] as const;
const noticesKey = ['notices'] as const;

/** GET /api/settings/notice-templates: every event's switch and text (owner). */
export const noticeTemplatesQuery = queryOptions({
  queryKey: templatesKey,
  queryFn: async () => {
    const { data } = await api.get<Answer<typeof noticeTemplatesResponse>>(
      API_PATHS.noticeTemplates,
    );
    return expectSuccess(data).data;
  },
});

/** POST /api/settings/notice-templates: one event's switch and text. */
async function saveTemplate(template: SaveNoticeTemplateRequest, key: string) {
  const { data } = await api.post<Answer<typeof saveNoticeTemplateResponse>>(
    API_PATHS.noticeTemplates,
    template,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/** Saves one template; the list then shows the server's copy of it. */
export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useChange(saveTemplate, {
    onSuccess: (answer) =>
      queryClient.setQueryData<NoticeTemplate[]>(templatesKey, (templates) =>
        templates?.map((template) =>
          template.event === answer.data.event ? answer.data : template,
        ),
      ),
    failed: TEMPLATE_TEXTS.saveFailed,
  });
}

/** The Delivery Log's filters; '' means "any". Dates `YYYY-MM-DD`. */
export interface NoticeFilters {
  status: string;
  event: string;
  mobile: string;
  from: string;
  to: string;
}

export const NO_FILTERS: NoticeFilters = { status: '', event: '', mobile: '', from: '', to: '' };

/** Only the filters that are set: the address stays short and the server sees "any". */
export const noticeParams = (
  { status, event, mobile, from, to }: NoticeFilters,
  page: number,
): NoticesQuery => ({
  status: status || undefined,
  event: event || undefined,
  mobile: mobile || undefined,
  from: from || undefined,
  to: to || undefined,
  page,
});

/** GET /api/notices: one page of notices, newest first, and how many match. */
export const noticesQuery = (filters: NoticeFilters, page: number) =>
  queryOptions({
    queryKey: [...noticesKey, filters, page] as const,
    queryFn: async () => {
      const { data } = await api.get<Answer<typeof noticesResponse>>(API_PATHS.notices, {
        params: noticeParams(filters, page),
      });
      return expectSuccess(data);
    },
    placeholderData: keepPreviousData,
    // Notices are sent in the background: every visit asks again.
    staleTime: 0,
  });

/** POST /api/notices/resend: a failed notice queued again. */
async function resendNotice(id: number, key: string) {
  const { data } = await api.post<Answer<typeof resendNoticeResponse>>(
    API_PATHS.noticeResend,
    { id },
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/** Queues a failed notice again, then asks for the list again (its status has changed). */
export function useResendNotice() {
  const queryClient = useQueryClient();
  return useChange(resendNotice, {
    onSuccess: () => refetchAfterChange(queryClient, noticesKey),
  });
}
