import { z } from 'zod';
import {
  DEFAULT_GRACE_DAYS,
  SCHEME_PLAN_FIELDS,
  readTypedNumber,
  schemePlanSaveRequest,
  type SchemePlan,
  type SchemePlanKind,
  type SchemePlanSaveRequest,
} from '@kanak/contract';

type NumberField = 'installments' | 'minAmount' | 'bonusPercent' | 'graceDays' | 'redeemWithinDays';

/** A plan as the form holds it: a number field, once edited, holds the text typed in it. */
export interface PlanDraft extends Record<NumberField, string | number> {
  code: string;
  name: string;
  kind: SchemePlanKind;
  active: boolean;
}

/** What a number field holds, read as every screen reads a typed number ("1,000"); blank is none. */
const typedNumber = (value: string | number) =>
  typeof value === 'string' ? readTypedNumber(value) : value;

/**
 * A plan as the owner types it, checked by the request's own rules once each number field's
 * text is read as a number: a field's message is the server's.
 */
export const planForm = z
  .custom<PlanDraft>()
  .transform((draft): SchemePlanSaveRequest => ({
    ...draft,
    installments: typedNumber(draft.installments),
    minAmount: typedNumber(draft.minAmount),
    bonusPercent: typedNumber(draft.bonusPercent),
    graceDays: typedNumber(draft.graceDays),
    redeemWithinDays: typedNumber(draft.redeemWithinDays),
  }))
  .pipe(schemePlanSaveRequest);
export type PlanValues = z.output<typeof planForm>;

/** A new plan starts as the standard scheme's usual terms; its minimum is left to type. */
export const blankPlan: PlanDraft = {
  code: '',
  name: '',
  kind: 'value',
  installments: 11,
  minAmount: '',
  bonusPercent: 100,
  graceDays: DEFAULT_GRACE_DAYS,
  redeemWithinDays: 60,
  active: true,
};

/** A plan's values to edit (how many schemes use it is not one of them). */
export const planDraft = ({ schemes: _inUse, ...values }: SchemePlan): PlanDraft => values;

type Field = Exclude<keyof typeof SCHEME_PLAN_FIELDS, 'active'>;

// Active is a switch with no line for a message: a refusal of it is shown above the buttons.
const FIELDS = (Object.entries(SCHEME_PLAN_FIELDS) as [Field | 'active', string][]).filter(
  (entry): entry is [Field, string] => entry[0] !== 'active',
);

/**
 * Which field each sentence of a server refusal is about: the rules start every sentence with
 * the field's name (or, for a check of the framework's own, its key and a colon). Sentences
 * about no field are returned as they are, to show above the buttons.
 */
export function placeRefusal(message: string): { errors: [Field, string][]; rest: string[] } {
  const errors = new Map<Field, string>();
  const rest: string[] = [];
  for (const sentence of message.split(/(?<=\.)\s+/)) {
    const field = FIELDS.find(
      ([key, name]) => sentence.startsWith(`${name} `) || sentence.startsWith(`${key}:`),
    )?.[0];
    if (field) {
      if (!errors.has(field)) errors.set(field, sentence);
    } else rest.push(sentence);
  }
  return { errors: [...errors], rest };
}
