import { useState } from 'react';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  ACCOUNTING_TEXTS,
  TALLY_LEDGER_FIELDS,
  TALLY_LEDGERS,
  accountingSettings,
  type AccountingSettings,
  type AccountingSettingsData,
} from '@kanak/contract';
import { ChangeError, ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { SubmitButton } from '../../components/SubmitButton';
import { showAlert } from '../../lib/app-state';
import { useSaveAccountingSettings } from './api';

const texts = ACCOUNTING_TEXTS;

/** The one-time set-up, open until the names are saved once, folded away after. */
export function LedgersSetUp({ current }: { current: AccountingSettingsData }) {
  // Held here, above the form (which starts afresh on every save): saving does not fold it
  // away under the owner's eyes; the next visit finds it folded.
  const [open, setOpen] = useState(current.isDefault);
  return (
    <Accordion
      variant="outlined"
      expanded={open}
      onChange={(_event, expanded) => setOpen(expanded)}
      disableGutters
      slotProps={{ heading: { component: 'h2' } }}
    >
      <AccordionSummary
        expandIcon={<ExpandMoreIcon />}
        aria-controls="tally-ledgers"
        id="tally-ledgers-heading"
      >
        <Stack>
          <Typography variant="h6" component="span">
            {texts.ledgersHeading}
          </Typography>
          {!open && (
            <Typography variant="body2" color="text.secondary">
              {texts.ledgersSaved}
            </Typography>
          )}
        </Stack>
      </AccordionSummary>
      <AccordionDetails id="tally-ledgers" sx={{ px: { xs: 2, sm: 3 }, pb: { xs: 2, sm: 3 } }}>
        <LedgersForm key={JSON.stringify(current)} current={current} />
      </AccordionDetails>
    </Accordion>
  );
}

/** The Tally company and ledger names, each checked as the server checks them. */
function LedgersForm({ current }: { current: AccountingSettingsData }) {
  const save = useSaveAccountingSettings();
  const { isDefault: _isDefault, razorpaySettlements: _razorpay, ...names } = current;
  const form = useSchemaForm(accountingSettings, names);

  const submit = (values: AccountingSettings) =>
    save.submit(values, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
      },
    });

  return (
    <ChangeForm form={form} change={save} onSubmit={submit}>
      <Stack spacing={2.5}>
        <Typography variant="body2" color="text.secondary">
          {texts.ledgersIntro}
        </Typography>
        {current.isDefault && <Alert severity="info">{texts.defaults}</Alert>}
        <FormField<AccountingSettings>
          name="company"
          label={texts.company}
          help={texts.companyHelp}
        />
        {TALLY_LEDGER_FIELDS.map((name) => (
          <FormField<AccountingSettings>
            key={name}
            name={name}
            label={TALLY_LEDGERS[name].label}
            help={texts.underGroup(TALLY_LEDGERS[name].group)}
          />
        ))}
        <ChangeError />
        <div>
          <SubmitButton pendingLabel={texts.saving}>{texts.save}</SubmitButton>
        </div>
      </Stack>
    </ChangeForm>
  );
}
