import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
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
  const { register, control, handleSubmit, reset, formState } = useForm<
    PanelConfigFormInput,
    unknown,
    PanelConfigValues
  >({ resolver: zodResolver(panelConfigForm), defaultValues: blank });
  const { errors } = formState;
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

  const submit = (values: PanelConfigValues) =>
    save.mutate(values, {
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
      component="form"
      onSubmit={handleSubmit(submit)}
      noValidate
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
      <Stack spacing={2.5}>
        <TextField
          label={texts.instanceId}
          {...register('instanceid')}
          autoComplete="off"
          error={Boolean(errors.instanceid)}
          helperText={errors.instanceid?.message}
          slotProps={{ htmlInput, inputLabel: { shrink: true } }}
        />
        <TextField
          label={texts.token}
          type={showToken ? 'text' : 'password'}
          {...register('token')}
          autoComplete="off"
          error={Boolean(errors.token)}
          helperText={errors.token?.message}
          slotProps={{
            htmlInput: { ...htmlInput, autoCapitalize: 'off', 'data-lpignore': 'true' },
            inputLabel: { shrink: true },
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
          control={control}
          render={({ field: { ref, ...field } }) => (
            <TextField
              select
              label={texts.panel}
              {...field}
              inputRef={ref}
              error={Boolean(errors.panel)}
              helperText={errors.panel?.message}
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
        <TextField
          label={texts.phone}
          type="tel"
          {...register('phone')}
          autoComplete="off"
          error={Boolean(errors.phone)}
          helperText={errors.phone?.message}
          slotProps={{
            htmlInput: { maxLength: LIMITS.mobileLength, inputMode: 'numeric' },
            inputLabel: { shrink: true },
            input: {
              startAdornment: <InputAdornment position="start">{COUNTRY_PREFIX}</InputAdornment>,
            },
          }}
        />
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            startIcon={
              save.isPending ? (
                <CircularProgress size={18} color="inherit" aria-label={texts.saving} />
              ) : undefined
            }
          >
            {texts.save}
          </Button>
          <Button type="button" variant="outlined" disabled={busy} onClick={revert}>
            {texts.revert}
          </Button>
        </Box>
        {mayTest && <TestMessage saved={data ? data.panel !== '' : undefined} busy={busy} />}
      </Stack>
    </Paper>
  );
}
