import { z } from 'zod';
import { LIMITS, PANEL_CHOICES } from '../limits.js';
import { dataResponse, requiredText, storableText } from './common.js';

const panelRule = 'Select Panel must be Panel 1, Panel 2, Panel 3 or Panel 4.';
const tokenRule = 'Token must be as the provider gave it: letters, digits and symbols, no spaces.';
const phoneRule = `Phone must be ${LIMITS.mobileLength} digits.`;

/**
 * Panel 4: WhatsApp's own Cloud API (Meta's Graph API), beside the three gateways of
 * PANEL_CHOICES. Its Instance Id is the phone number's id and its Token the access token.
 */
export const OFFICIAL_PANEL = 4;
const PANEL_NUMBERS = [...PANEL_CHOICES, OFFICIAL_PANEL] as const;

/**
 * What the configuration answers in place of the official panel's access token and app
 * secret: they are never shown again. Sent back unchanged, the saved one is kept.
 */
export const SECRET_KEPT = '••••••••';

/** A Meta access token is far longer than a gateway's token. */
const OFFICIAL_TOKEN_MAX_LENGTH = 1000;
/** Meta's ids (a phone number's, a business account's) are digits. */
const isMetaId = (value: string) => /^\d{1,30}$/.test(value);
/** An app secret, as the app's dashboard shows it: 32 hexadecimal characters. */
const isAppSecret = (value: string) => /^[0-9a-f]{32}$/i.test(value);

/** Panel 1, 2, 3 or 4, as a number or as the digit the select sends. */
export const panelChoice = z
  .union([z.number(), z.string().trim().regex(/^\d$/, { error: panelRule })], {
    error: panelRule,
  })
  .transform(Number)
  .refine((panel) => (PANEL_NUMBERS as readonly number[]).includes(panel), { error: panelRule });

/**
 * The instance id and the token become parts of the provider's address (a path segment, a
 * query parameter): an instance id is a plain name, a token has no spaces and is never `.` or
 * `..`, which would take the request to another path of the provider's host.
 */
export const isPanelInstanceId = (value: string) => /^[A-Za-z0-9_-]+$/.test(value);
export const isPanelToken = (value: string) => /^(?!\.+$)[\x21-\x7E]+$/.test(value);

/**
 * The Message Configuration form (the panel config). Panel 4 takes two more fields, its
 * business account's id and its app's secret; its token and app secret may come back as
 * SECRET_KEPT, keeping the saved ones.
 */
export const panelConfigForm = z
  .object({
    instanceid: requiredText('Instance Id', LIMITS.panelFieldMaxLength).refine(
      (value) => value === '' || isPanelInstanceId(value),
      {
        error: 'Instance Id may have only letters, digits, dashes and underscores.',
      },
    ),
    token: requiredText('Token', OFFICIAL_TOKEN_MAX_LENGTH).refine(
      (value) => value === '' || value === SECRET_KEPT || isPanelToken(value),
      { error: tokenRule },
    ),
    panel: panelChoice,
    phone: z
      .string({ error: 'Phone is required.' })
      .trim()
      .min(1, { error: 'Phone is required.', abort: true })
      .regex(/^\d{10}$/, { error: phoneRule }),
    businessAccountId: storableText('Business account id', 'Business account id must be text.')
      .trim()
      .optional(),
    appSecret: storableText('App secret', 'App secret must be text.').trim().optional(),
  })
  .superRefine((form, context) => {
    const refuse = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (form.panel !== OFFICIAL_PANEL) {
      if (form.token === SECRET_KEPT) refuse('token', tokenRule);
      else if (form.token.length > LIMITS.panelFieldMaxLength)
        refuse('token', `Token must be at most ${LIMITS.panelFieldMaxLength} characters.`);
      return;
    }
    if (form.instanceid !== '' && !isMetaId(form.instanceid))
      refuse('instanceid', "Instance Id must be the phone number's id: digits only.");
    if (!form.businessAccountId) refuse('businessAccountId', 'Business account id is required.');
    else if (!isMetaId(form.businessAccountId))
      refuse('businessAccountId', 'Business account id must be digits only.');
    if (!form.appSecret) refuse('appSecret', 'App secret is required.');
    else if (form.appSecret !== SECRET_KEPT && !isAppSecret(form.appSecret))
      refuse('appSecret', "App secret must be the app's 32 letters and digits.");
  })
  .transform(({ instanceid, token, panel, phone, businessAccountId, appSecret }) =>
    panel === OFFICIAL_PANEL
      ? {
          instanceid,
          token,
          panel: OFFICIAL_PANEL as typeof OFFICIAL_PANEL,
          phone,
          businessAccountId: businessAccountId ?? '',
          appSecret: appSecret ?? '',
        }
      : { instanceid, token, panel: panel as (typeof PANEL_CHOICES)[number], phone },
  );
export type PanelConfigFormInput = z.input<typeof panelConfigForm>;
export type PanelConfigForm = z.output<typeof panelConfigForm>;
/** The official panel's form, as saved. */
export type OfficialPanelForm = Extract<PanelConfigForm, { panel: typeof OFFICIAL_PANEL }>;

export const panelSetupRequest = z.object({ formData: panelConfigForm });
export type PanelSetupRequest = z.input<typeof panelSetupRequest>;

/**
 * `GET /api/social/get-panel-config`: the saved configuration with the token readable (the
 * staff screen shows it on request). Never saved: every field `''`, panel included.
 */
export const gatewayPanelConfig = z.object({
  instanceid: z.string(),
  token: z.string(),
  panel: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal('')]),
  phone: z.string(),
});
/**
 * The official panel's configuration: its access token and app secret as SECRET_KEPT, never
 * again as saved; the verify token and the address Meta's webhook is given, to copy there.
 */
export const officialPanelConfig = z.object({
  instanceid: z.string(),
  token: z.string(),
  panel: z.literal(OFFICIAL_PANEL),
  phone: z.string(),
  businessAccountId: z.string(),
  appSecret: z.string(),
  webhookVerifyToken: z.string(),
  webhookUrl: z.string(),
});
export const panelConfig = z.union([gatewayPanelConfig, officialPanelConfig]);
export type PanelConfig = z.infer<typeof panelConfig>;
export type GatewayPanelConfig = z.infer<typeof gatewayPanelConfig>;
export const panelConfigResponse = dataResponse(panelConfig);

export const EMPTY_PANEL_CONFIG: GatewayPanelConfig = {
  instanceid: '',
  token: '',
  panel: '',
  phone: '',
};

/** What Meta's webhook is given: the verify token to type there, and the address. */
export const webhookSetup = z.object({ webhookVerifyToken: z.string(), webhookUrl: z.string() });
export type WebhookSetup = z.infer<typeof webhookSetup>;
/** The panel saved; the official panel's answer carries its webhook's settings. */
export const panelSetupResponse = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  data: webhookSetup.optional(),
});
