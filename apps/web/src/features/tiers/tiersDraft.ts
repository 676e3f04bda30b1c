import { z } from 'zod';
import {
  TIER_DOWNGRADES,
  readTypedNumber,
  tiersForm,
  type TiersFormInput,
  type TiersSettings,
} from '@kanak/contract';

/** A tier as typed: every field is text until it is read ("2,00,000" too). */
const rowDraft = z.object({
  code: z.string(),
  name: z.string(),
  minSpend: z.string(),
  earnPercent: z.string(),
});
const tiersDraft = z.object({ tiers: z.array(rowDraft), downgrade: z.enum(TIER_DOWNGRADES) });
export type TiersDraft = z.infer<typeof tiersDraft>;
export type TierDraft = TiersDraft['tiers'][number];
export type TierField = keyof TierDraft;

export const draftOf = (current: TiersSettings): TiersDraft => ({
  tiers: current.tiers.map((tier) => ({
    code: tier.code,
    name: tier.name,
    minSpend: String(tier.minSpend),
    earnPercent: String(tier.earnPercent),
  })),
  downgrade: current.downgrade,
});

export const blankTier: TierDraft = { code: '', name: '', minSpend: '', earnPercent: '100' };

/** Lowest spend first, as the ladder reads; rows without a number yet go last. */
export const bySpend = (a: TierDraft, b: TierDraft) => {
  const [x, y] = [readTypedNumber(a.minSpend), readTypedNumber(b.minSpend)];
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
  return x - y;
};

/** The tiers as sent, in the rows' order: codes in capitals, spends in rupees. */
export const readTiers = (tiers: readonly TierDraft[], downgrade: TiersDraft['downgrade']) =>
  ({
    tiers: tiers.map((row) => ({
      code: row.code.trim().toUpperCase(),
      name: row.name.trim(),
      minSpend: readTypedNumber(row.minSpend),
      earnPercent: readTypedNumber(row.earnPercent),
    })),
    downgrade,
  }) satisfies TiersFormInput;

/**
 * The draft checked by the contract's own rules, in the words the server would answer with:
 * a tier's problem beside its field, a problem of the whole list (two tiers with one code)
 * above the tiers.
 */
export const checkedTiers = tiersDraft.superRefine((draft, context) => {
  const checked = tiersForm.safeParse(readTiers(draft.tiers, draft.downgrade));
  if (checked.success) return;
  for (const issue of checked.error.issues) {
    const [, index, field] = issue.path;
    const row = typeof index === 'number' && typeof field === 'string';
    context.addIssue({
      code: 'custom',
      message: issue.message,
      path: row ? ['tiers', index, field] : ['tiers'],
    });
  }
});
