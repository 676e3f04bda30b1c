import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import { useQuery } from '@tanstack/react-query';
import {
  NOTICE_EVENT_LABELS,
  NOTICE_MESSAGES,
  PAGE_TITLES,
  TEMPLATE_TEXTS,
  type NoticeTemplate,
} from '@kanak/contract';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { NumbersUnbroken } from '../../components/NumbersUnbroken';
import { PageHeader } from '../../components/PageHeader';
import { SwitchControl } from '../../components/SwitchControl';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { noticeTemplatesQuery, useSaveTemplate } from './api';
import { TemplateDialog } from './TemplateDialog';

const texts = TEMPLATE_TEXTS;

/** A placeholder stays with its ₹ ("₹{amount}"), and a number stays whole. */
const PLACEHOLDERS_AND_NUMBERS = /(₹?\{\w+\}|\d[\d,./:-]*\d)/;

/**
 * Message Templates (/home/message-templates, owner): what customers receive on WhatsApp for
 * each event. A switch turns an event's notices on or off at once; the pencil opens its text.
 */
export function MessageTemplatesPage() {
  const templates = useQuery(noticeTemplatesQuery);
  const toggle = useSaveTemplate();
  const [editing, setEditing] = useState<NoticeTemplate | null>(null);

  useEffect(() => {
    if (templates.error) reportFailure(templates.error, texts.loadFailed);
  }, [templates.error, templates.errorUpdatedAt]);

  // The switch saves that event with the text it has now: only its on/off changes.
  const switchOver = (template: NoticeTemplate, enabled: boolean) =>
    toggle.submit(
      { event: template.event, enabled, text: template.text },
      {
        onSuccess: (answer) =>
          showAlert(
            'success',
            answer.message ?? NOTICE_MESSAGES.templateSaved(NOTICE_EVENT_LABELS[template.event]),
          ),
        onError: (error) => reportFailure(error, texts.saveFailed),
      },
    );

  const columns: DataColumn<NoticeTemplate>[] = [
    {
      key: 'event',
      header: texts.event,
      width: 'minmax(150px, 1fr)',
      cell: (template) => (
        <Box>
          <div>{NOTICE_EVENT_LABELS[template.event]}</div>
          {!template.isDefault && (
            <Chip size="small" variant="outlined" label={texts.customised} sx={{ mt: 0.5 }} />
          )}
        </Box>
      ),
    },
    {
      key: 'enabled',
      header: texts.enabled,
      width: '90px',
      cell: (template) => (
        <SwitchControl
          checked={template.enabled}
          disabled={toggle.isPending}
          label={texts.switchLabel(NOTICE_EVENT_LABELS[template.event])}
          onChange={(enabled) => switchOver(template, enabled)}
        >
          {template.enabled ? texts.on : texts.off}
        </SwitchControl>
      ),
    },
    {
      key: 'text',
      header: texts.text,
      width: 'minmax(240px, 3fr)',
      cell: (template) => <NumbersUnbroken text={template.text} keep={PLACEHOLDERS_AND_NUMBERS} />,
    },
    {
      key: 'edit',
      header: texts.actions,
      width: '72px',
      align: 'center',
      cell: (template) => {
        const name = texts.edit(NOTICE_EVENT_LABELS[template.event]);
        return (
          <Tooltip title={name}>
            <IconButton className="no-print" aria-label={name} onClick={() => setEditing(template)}>
              <EditIcon />
            </IconButton>
          </Tooltip>
        );
      },
    },
  ];

  return (
    <>
      <PageHeader title={PAGE_TITLES.messageTemplates} />
      <Typography sx={{ mb: 2 }}>{texts.intro}</Typography>
      <DataTable
        label={texts.table}
        columns={columns}
        rows={templates.data ?? []}
        rowKey={(template) => template.event}
        bodyHeight={560}
        minWidth={720}
        emptyText={templates.isError ? texts.loadFailed : ''}
        loading={templates.isFetching}
        loadingLabel={texts.loading}
      />
      {editing && (
        <TemplateDialog key={editing.event} template={editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
