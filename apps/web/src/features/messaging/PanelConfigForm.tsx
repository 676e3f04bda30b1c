import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { Controller } from 'react-hook-form';
import {
  COUNTRY_PREFIX,
  LIMITS,
  MESSAGES,
  MESSAGING_TEXTS,
  PANEL_CHOICES,
  panelConfigForm,
  type PanelConfig,
  type PanelConfigForm as PanelConfigValues,
  type PanelConfigFormInput,
} from '@kanak/contract';
import { ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { SubmitButton } from '../../components/SubmitButton';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useMayCall } from '../../lib/me';
import { usePanelConfig, useSavePanelConfig } from './api';
import { TestMessage } from './TestMessage';

const texts = MESSAGING_TEXTS;

const toForm = (config: PanelConfig): PanelConfigFormInput => ({ ...config });

const blank: PanelConfigFormInput = { instanceid: '', token: '', panel: '', phone: '' };

/**
 * Instance Id, Token (hidden unless shown), Select Panel and Phone; SAVE sends them, REVERT
 * loads the saved configuration again, each with its alert.
 */
export function PanelConfigForm() {
  const config = usePanelConfig();
  const save = useSavePanelConfig();
  const mayTest = useMayCall('testMessage');
  const [showToken, setShowToken] = useState(false);
  const form = useSchemaForm(panelConfigForm, blank);
  const { reset } = form;
  const loading = config.isFetching;
  const busy = loading || save.isPending;

  // Each answer of the server (on opening, REVERT or after SAVE) fills the form.
  const { data, dataUpdatedAt, error, errorUpdatedAt } = config;
  useEffect(() => {
    if (data) reset(toForm(data));
  }, [data, dataUpdatedAt, reset]);

  useEffect(() => {
    if (!error) return;
    reportFailure(error, MESSAGES.panelLoadFailed, () =>
      showAlert('warning', MESSAGES.panelLoadRefused),
    );
  }, [error, errorUpdatedAt]);

  // Told as the app's alerts (a refusal as a warning with the server's reason), not in the form.
  const submit = (values: PanelConfigValues) =>
    save.submit(values, {
      onSuccess: () => showAlert('success', MESSAGES.panelSaved),
      onError: (saveError) =>
        reportFailure(saveError, MESSAGES.panelSaveFailed, (message) =>
          showAlert('warning', texts.saveRefused(message)),
        ),
    });

  const revert = () => {
    void config.refetch();
  };

  const htmlInput = { maxLength: LIMITS.panelFieldMaxLength, spellCheck: false };

  return (
    <Paper
      variant="outlined"
      aria-busy={busy}
      sx={{ p: { xs: 2, sm: 3 }, maxWidth: 560, position: 'relative', overflow: 'hidden' }}
    >
      {loading && (
        <LinearProgress
          aria-label={texts.loading}
          sx={{ position: 'absolute', top: 0, left: 0, right: 0 }}
        />
      )}
      <ChangeForm form={form} change={save} onSubmit={submit}>
        <Stack spacing={2.5}>
          <FormField<PanelConfigFormInput>
            name="instanceid"
            label={texts.instanceId}
            autoComplete="off"
            slotProps={{ htmlInput }}
          />
          <FormField<PanelConfigFormInput>
            name="token"
            label={texts.token}
            type={showToken ? 'text' : 'password'}
            autoComplete="off"
            slotProps={{
              htmlInput: { ...htmlInput, autoCapitalize: 'off', 'data-lpignore': 'true' },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton
                      aria-label={showToken ? texts.hideToken : texts.showToken}
                      onClick={() => setShowToken((shown) => !shown)}
                      edge="end"
                    >
                      {showToken ? <VisibilityOff /> : <Visibility />}
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
          <Controller
            name="panel"
            control={form.control}
            render={({ field: { ref, ...field }, fieldState }) => (
              <TextField
                select
                label={texts.panel}
                {...field}
                inputRef={ref}
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message}
                slotProps={{ inputLabel: { shrink: true } }}
              >
                {PANEL_CHOICES.map((panel) => (
                  <MenuItem key={panel} value={panel}>
                    {texts.panelOption(panel)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <FormField<PanelConfigFormInput>
            name="phone"
            label={texts.phone}
            type="tel"
            autoComplete="off"
            slotProps={{
              htmlInput: { maxLength: LIMITS.mobileLength, inputMode: 'numeric' },
              input: {
                startAdornment: <InputAdornment position="start">{COUNTRY_PREFIX}</InputAdornment>,
              },
            }}
          />
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <SubmitButton pendingLabel={texts.saving} disabled={loading}>
              {texts.save}
            </SubmitButton>
            <Button type="button" variant="outlined" disabled={busy} onClick={revert}>
              {texts.revert}
            </Button>
          </Box>
        </Stack>
      </ChangeForm>
      {/* Its own change, so outside the form: SAVE's spinner is not its. */}
      {mayTest && (
        <Box sx={{ mt: 2.5 }}>
          <TestMessage saved={data ? data.panel !== '' : undefined} busy={busy} />
        </Box>
      )}
    </Paper>
  );
}
