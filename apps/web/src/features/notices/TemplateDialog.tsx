import { useId, useLayoutEffect, useRef } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  DEFAULT_NOTICE_TEXTS,
  LIMITS,
  NOTICE_EVENT_LABELS,
  NOTICE_MESSAGES,
  NOTICE_PLACEHOLDERS,
  NOTICE_PLACEHOLDER_HELP,
  NOTICE_SAMPLE_VALUES,
  TEMPLATE_TEXTS,
  renderNotice,
  saveNoticeTemplateRequest,
  unknownPlaceholders,
  type NoticePlaceholder,
  type NoticeTemplate,
  type SaveNoticeTemplateRequest,
} from '@kanak/contract';
import type { z } from 'zod';
import { ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { NumbersUnbroken } from '../../components/NumbersUnbroken';
import { SubmitButton } from '../../components/SubmitButton';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useSaveTemplate } from './api';

const texts = TEMPLATE_TEXTS;

/**
 * One event's text: typed in any script, with its placeholders a click away and a preview
 * filled with sample values. A misspelt placeholder is named before anything is sent.
 */
export function TemplateDialog({
  template,
  onClose,
}: {
  template: NoticeTemplate;
  onClose: () => void;
}) {
  const save = useSaveTemplate();
  const label = NOTICE_EVENT_LABELS[template.event];
  // A message under the text stays until the text is edited or saved again.
  const form = useSchemaForm(
    saveNoticeTemplateRequest,
    { event: template.event, enabled: template.enabled, text: template.text },
    { reValidateMode: 'onSubmit' },
  );
  const text = form.watch('text');
  const problem = form.formState.errors.text?.message;
  const textField = form.register('text');
  const textArea = useRef<HTMLTextAreaElement>(null);
  // Where the cursor goes once an inserted placeholder has rendered.
  const caret = useRef<number | null>(null);
  const textId = useId();
  const placeholdersId = useId();
  const previewId = useId();
  const unknown = unknownPlaceholders(text);

  useLayoutEffect(() => {
    const at = caret.current;
    if (at === null || !textArea.current) return;
    caret.current = null;
    textArea.current.focus();
    textArea.current.setSelectionRange(at, at);
  }, [text]);

  const edit = (next: string) => {
    form.setValue('text', next);
    form.clearErrors('text');
  };

  const insert = (key: NoticePlaceholder) => {
    const field = textArea.current;
    const token = `{${key}}`;
    const start = field?.selectionStart ?? text.length;
    const end = field?.selectionEnd ?? text.length;
    caret.current = start + token.length;
    edit(text.slice(0, start) + token + text.slice(end));
  };

  // A refusal shows under the text; a call that could not be made, as the app's alert.
  const submit = (checked: z.output<typeof saveNoticeTemplateRequest>) =>
    save.submit(checked, {
      onSuccess: (answer) => {
        showAlert('success', answer.message ?? NOTICE_MESSAGES.templateSaved(label));
        onClose();
      },
      onError: (error) =>
        reportFailure(error, texts.saveFailed, (message) =>
          form.setError('text', { message: message ?? texts.saveFailed }),
        ),
    });

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="md">
      {/* A flex column like the dialog itself: the content scrolls and Save stays on screen. */}
      <ChangeForm
        form={form}
        change={save}
        onSubmit={submit}
        style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DialogTitle>{texts.editTitle(label)}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <FormField<SaveNoticeTemplateRequest>
              name="text"
              id={textId}
              label={texts.text}
              onChange={(event) => {
                form.clearErrors('text');
                return textField.onChange(event);
              }}
              multiline
              minRows={4}
              maxRows={12}
              inputRef={textArea}
              slotProps={{
                htmlInput: {
                  maxLength: LIMITS.noticeTextMaxLength,
                  // MUI's own description (the problem) and the placeholders' hint.
                  'aria-describedby': problem
                    ? `${textId}-helper-text ${placeholdersId}-hint`
                    : `${placeholdersId}-hint`,
                },
              }}
            />
            {unknown.length > 0 && (
              <Alert severity="warning">{texts.unknownPlaceholders(unknown)}</Alert>
            )}
            <Box component="section" aria-labelledby={placeholdersId}>
              <Typography id={placeholdersId} component="h3" variant="subtitle1">
                {texts.placeholders}
              </Typography>
              <Typography
                id={`${placeholdersId}-hint`}
                variant="body2"
                color="text.secondary"
                sx={{ mb: 1 }}
              >
                {texts.placeholdersHint}
              </Typography>
              <Box
                component="ul"
                sx={{
                  listStyle: 'none',
                  p: 0,
                  m: 0,
                  display: 'grid',
                  gap: 1,
                  gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' },
                }}
              >
                {NOTICE_PLACEHOLDERS.map((key) => (
                  <Box
                    component="li"
                    key={key}
                    sx={{ display: 'flex', alignItems: 'center', gap: 1 }}
                  >
                    <Chip
                      label={`{${key}}`}
                      size="small"
                      color="primary"
                      variant="outlined"
                      onClick={() => insert(key)}
                      aria-describedby={`${placeholdersId}-${key}`}
                      sx={{ fontFamily: 'monospace' }}
                    />
                    <Typography id={`${placeholdersId}-${key}`} variant="body2">
                      {NOTICE_PLACEHOLDER_HELP[key]}
                    </Typography>
                  </Box>
                ))}
              </Box>
            </Box>
            <Box component="section" aria-labelledby={previewId}>
              <Typography id={previewId} component="h3" variant="subtitle1">
                {texts.preview}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {texts.previewHint}
              </Typography>
              <Box
                sx={{
                  p: 1.5,
                  borderRadius: 2,
                  bgcolor: '#dcf8c6',
                  color: '#111',
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                }}
              >
                <NumbersUnbroken text={renderNotice(text, NOTICE_SAMPLE_VALUES)} />
              </Box>
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button
            onClick={() => edit(DEFAULT_NOTICE_TEXTS[template.event])}
            disabled={save.isPending || text === DEFAULT_NOTICE_TEXTS[template.event]}
            sx={{ mr: 'auto' }}
          >
            {texts.restoreDefault}
          </Button>
          <Button onClick={onClose} disabled={save.isPending}>
            {texts.cancel}
          </Button>
          <SubmitButton pendingLabel={texts.saving}>{texts.save}</SubmitButton>
        </DialogActions>
      </ChangeForm>
    </Dialog>
  );
}
