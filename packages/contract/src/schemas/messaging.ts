import { z } from 'zod';
import { LIMITS, PANEL_CHOICES } from '../limits.js';
import { dataResponse, requiredText } from './common.js';

const panelRule = 'Select Panel must be Panel 1, Panel 2 or Panel 3.';
const phoneRule = `Phone must be ${LIMITS.mobileLength} digits.`;

/** Panel 1, 2 or 3, as a number or as the digit the select sends. */
export const panelChoice = z
  .union([z.number(), z.string().trim().regex(/^\d$/, { error: panelRule })], {
    error: panelRule,
  })
  .transform(Number)
  .refine((panel) => (PANEL_CHOICES as readonly number[]).includes(panel), { error: panelRule });

/**
 * The instance id and the token become parts of the provider's address (a path segment, a
 * query parameter): an instance id is a plain name, a token has no spaces and is never `.` or
 * `..`, which would take the request to another path of the provider's host.
 */
export const isPanelInstanceId = (value: string) => /^[A-Za-z0-9_-]+$/.test(value);
export const isPanelToken = (value: string) => /^(?!\.+$)[\x21-\x7E]+$/.test(value);

/** The Message Configuration form (the panel config). */
export const panelConfigForm = z.object({
  instanceid: requiredText('Instance Id', LIMITS.panelFieldMaxLength).refine(
    (value) => value === '' || isPanelInstanceId(value),
    {
      error: 'Instance Id may have only letters, digits, dashes and underscores.',
    },
  ),
  token: requiredText('Token', LIMITS.panelFieldMaxLength).refine(
    (value) => value === '' || isPanelToken(value),
    {
      error: 'Token must be as the provider gave it: letters, digits and symbols, no spaces.',
    },
  ),
  panel: panelChoice,
  phone: z
    .string({ error: 'Phone is required.' })
    .trim()
    .min(1, { error: 'Phone is required.', abort: true })
    .regex(/^\d{10}$/, { error: phoneRule }),
});
export type PanelConfigFormInput = z.input<typeof panelConfigForm>;
export type PanelConfigForm = z.output<typeof panelConfigForm>;

export const panelSetupRequest = z.object({ formData: panelConfigForm });
export type PanelSetupRequest = z.input<typeof panelSetupRequest>;

/**
 * `GET /api/social/get-panel-config`: the saved configuration with the token readable (the
 * staff screen shows it on request). Never saved: every field `''`, panel included.
 */
export const panelConfig = z.object({
  instanceid: z.string(),
  token: z.string(),
  panel: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal('')]),
  phone: z.string(),
});
export type PanelConfig = z.infer<typeof panelConfig>;
export const panelConfigResponse = dataResponse(panelConfig);

export const EMPTY_PANEL_CONFIG: PanelConfig = { instanceid: '', token: '', panel: '', phone: '' };
