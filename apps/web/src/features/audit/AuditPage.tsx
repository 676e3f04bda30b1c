import { useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import DownloadIcon from '@mui/icons-material/Download';
import {
  AUDIT_ENTITIES,
  AUDIT_ENTITY_LABELS,
  AUDIT_TEXTS,
  DEFAULT_STORE_TIMEZONE,
  LIMITS,
  PAGE_TITLES,
} from '@kanak/contract';
import { DateRangeFields } from '../../components/FilterPanel';
import { ListPage } from '../../components/ListPage';
import { SubmitButton } from '../../components/SubmitButton';
import { textFields } from '../../components/useAddressFilter';
import { useListQuery } from '../../components/useListQuery';
import { useStoreToday } from '../../components/useStoreToday';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { useBranding } from '../../lib/branding';
import { NO_FILTERS, auditQuery, downloadAuditCsv, type AuditFilters } from './api';
import { auditColumns } from './auditColumns';

const texts = AUDIT_TEXTS;

/** The filters in the address (`?entity=scheme&from=…`): a bookmark, Back and Forward. */
const auditAddress = textFields(NO_FILTERS);

/** A page that could not be read: a refusal's own words as a warning, else the fixed text. */
function tellLoadFailed(error: unknown) {
  const failure = readFailure(error);
  if (failure.kind === 'refused') showAlert('warning', failure.message ?? texts.loadFailed);
  else if (failure.kind === 'exception') showAlert('error', texts.loadFailed);
}

/** The filtered changes as CSV: the filter the list shows, not the one being typed. */
function CsvButton({ filters }: { filters: AuditFilters }) {
  const today = useStoreToday();
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadAuditCsv(filters, today);
    } catch (error) {
      const failure = readFailure(error);
      showAlert(
        'error',
        failure.kind === 'refused' ? (failure.message ?? texts.csvFailed) : texts.csvFailed,
      );
    } finally {
      setDownloading(false);
    }
  };
  return (
    <SubmitButton
      type="button"
      variant="outlined"
      pending={downloading}
      pendingLabel={texts.csvPending}
      startIcon={<DownloadIcon />}
      onClick={() => void download()}
    >
      {texts.csv}
    </SubmitButton>
  );
}

/**
 * Audit Trail (/home/audit, owners and managers): every change, newest first, with who made
 * it, where, to what, and the values before and after. Secrets show only as "(hidden)".
 */
export function AuditPage() {
  const timeZone = useBranding().branding?.storeTimezone ?? DEFAULT_STORE_TIMEZONE;
  const list = useListQuery({
    address: auditAddress,
    query: auditQuery,
    pageSize: LIMITS.auditPageSize,
    tidy: (form) => ({ ...form, user: form.user.trim(), mobile: form.mobile.trim() }),
    cleared: NO_FILTERS,
    failed: tellLoadFailed,
  });
  const { form, edit } = list;

  return (
    <ListPage
      title={PAGE_TITLES.audit}
      actions={<CsvButton filters={list.asked} />}
      list={list}
      filters={{
        title: texts.filters,
        columns: { sm: '1fr 1fr', lg: 'repeat(5, 1fr) auto' },
        search: texts.search,
        pendingLabel: texts.loading,
        clear: texts.clear,
        children: (
          <>
            <TextField
              label={texts.user}
              name="user"
              value={form.user}
              onChange={(event) => edit({ user: event.target.value })}
              slotProps={{ htmlInput: { maxLength: LIMITS.usernameMaxLength } }}
            />
            <TextField
              select
              label={texts.entity}
              name="entity"
              value={form.entity}
              onChange={(event) => edit({ entity: event.target.value })}
            >
              <MenuItem value="">{texts.anyEntity}</MenuItem>
              {AUDIT_ENTITIES.map((entity) => (
                <MenuItem key={entity} value={entity}>
                  {AUDIT_ENTITY_LABELS[entity]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={texts.mobile}
              name="mobile"
              value={form.mobile}
              onChange={(event) => edit({ mobile: event.target.value.replace(/\D/g, '') })}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: LIMITS.mobileLength } }}
            />
            <DateRangeFields labels={texts} value={form} onChange={edit} />
          </>
        ),
      }}
      table={{
        label: texts.table,
        columns: auditColumns(timeZone),
        rowKey: (row) => row.id,
        bodyHeight: 480,
        minWidth: 900,
        emptyText: texts.empty,
        loadingLabel: texts.loading,
      }}
      pageOf={(page, pages, total) =>
        texts.pageOf(page, pages, total, list.answer?.totalCapped ?? false)
      }
    />
  );
}
