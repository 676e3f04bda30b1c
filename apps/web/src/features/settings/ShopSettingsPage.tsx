import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  PAGE_TITLES,
  SHOP_SETTINGS_TEXTS,
  shopSettingsForm,
  type ShopSettings,
  type ShopSettingsForm,
} from '@kanak/contract';
import { ChangeError, ChangeForm, FormField, useSchemaForm } from '../../components/ChangeForm';
import { PageHeader } from '../../components/PageHeader';
import { SubmitButton } from '../../components/SubmitButton';
import { showAlert } from '../../lib/app-state';
import { shopSettingsQuery, useSaveShopSettings } from './api';
import { LogoCard, section } from './LogoCard';

const texts = SHOP_SETTINGS_TEXTS;

/**
 * Shop Settings (/home/shop-settings, the owner): what the sign-in page, the app, printouts,
 * receipts, the customers' portal and the notices call the shop, and its logo.
 */
export function ShopSettingsPage() {
  const settings = useQuery(shopSettingsQuery);
  return (
    <>
      <PageHeader title={PAGE_TITLES.shopSettings} />
      {settings.isError && <Alert severity="error">{texts.loadFailed}</Alert>}
      {settings.isPending && <CircularProgress aria-label={texts.loading} />}
      {settings.data && (
        <Stack spacing={3} sx={{ maxWidth: 720 }}>
          <Typography color="text.secondary">{texts.intro}</Typography>
          {/* Starts afresh from what the server holds after each save. */}
          <DetailsForm key={JSON.stringify(settings.data)} current={settings.data} />
          <LogoCard logoUrl={settings.data.logoUrl} />
        </Stack>
      )}
    </>
  );
}

/** The shop's name, tagline, GSTIN and phones: checked here as the server checks them. */
function DetailsForm({ current }: { current: ShopSettings }) {
  const save = useSaveShopSettings();
  const form = useSchemaForm(shopSettingsForm, {
    companyName: current.companyName,
    tagline: current.tagline,
    gstin: current.gstin,
    supportPhone: current.supportPhone,
    poweredBy: current.poweredBy,
  });
  const gstin = form.register('gstin');

  const submit = (values: ShopSettingsForm) =>
    save.submit(values, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
      },
    });

  return (
    <Paper variant="outlined" component="section" aria-labelledby="shop-details" sx={section}>
      <ChangeForm form={form} change={save} onSubmit={submit}>
        <Stack spacing={2.5}>
          <Typography variant="h6" component="h2" id="shop-details">
            {texts.detailsHeading}
          </Typography>
          <FormField<ShopSettingsForm> name="companyName" label={texts.companyName} />
          <FormField<ShopSettingsForm>
            name="tagline"
            label={texts.tagline}
            help={texts.taglineHelp}
          />
          <FormField<ShopSettingsForm>
            name="gstin"
            label={texts.gstin}
            help={texts.gstinHelp}
            onChange={(event) => {
              // A GSTIN is capitals: typed in any case, kept in capitals.
              event.target.value = event.target.value.toUpperCase();
              return gstin.onChange(event);
            }}
            slotProps={{ htmlInput: { maxLength: 20, autoCapitalize: 'characters' } }}
          />
          <FormField<ShopSettingsForm>
            name="supportPhone"
            label={texts.supportPhone}
            help={texts.supportPhoneHelp}
            type="tel"
          />
          <FormField<ShopSettingsForm>
            name="poweredBy"
            label={texts.poweredBy}
            help={texts.poweredByHelp}
          />
          <ChangeError />
          <Box>
            <SubmitButton pendingLabel={texts.saving}>{texts.save}</SubmitButton>
          </Box>
        </Stack>
      </ChangeForm>
    </Paper>
  );
}
