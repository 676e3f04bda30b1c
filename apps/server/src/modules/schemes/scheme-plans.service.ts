import {
  DEFAULT_GRACE_DAYS,
  MESSAGES,
  STD_PLAN_CODE,
  type SchemePlan,
  type SchemePlanKind,
} from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { ConflictError } from '../../lib/errors.js';
import type { StaffActor } from '../../plugins/types.js';
import { schemePlansRepo, type SchemePlanRow } from './scheme-plans.repo.js';

export type SchemePlansService = ReturnType<typeof createSchemePlansService>;

export interface PlanInput {
  code: string;
  name: string;
  kind: SchemePlanKind;
  installments: number;
  minAmount: number;
  bonusPercent: number;
  graceDays: number;
  redeemWithinDays: number;
  active: boolean;
}

/** The terms a running scheme depends on: they never change once a scheme uses the plan. */
const TERMS = [
  'kind',
  'installments',
  'minAmount',
  'bonusPercent',
  'graceDays',
  'redeemWithinDays',
] as const;

/**
 * The owner's scheme plans. STD is the standard scheme, shown with the installments and
 * bonus the server is configured with and the default grace (what its schemes, which have no
 * plan row, get); it is not edited here.
 */
export function createSchemePlansService({
  db,
  terms,
}: {
  db: Db;
  terms: { installments: number; bonusPercent: number };
}) {
  const toPlan = (row: SchemePlanRow, schemes: number): SchemePlan => ({
    code: row.code,
    name: row.name,
    kind: row.kind as SchemePlanKind,
    installments: row.code === STD_PLAN_CODE ? terms.installments : row.installments,
    minAmount: row.minAmount,
    bonusPercent: row.code === STD_PLAN_CODE ? terms.bonusPercent : row.bonusPercent,
    graceDays: row.code === STD_PLAN_CODE ? DEFAULT_GRACE_DAYS : row.graceDays,
    redeemWithinDays: row.redeemWithinDays,
    active: row.active,
    schemes,
  });

  return {
    async list(): Promise<SchemePlan[]> {
      const rows = await schemePlansRepo.list(db);
      return rows.map(({ plan, schemes }) => toPlan(plan, schemes));
    },

    /**
     * Adds a plan, or changes the one with the code. A plan that schemes use keeps its terms:
     * changing them is refused with the reason (the owner saves them under a new code), while
     * its name and whether it is still offered may change.
     */
    async save(actor: StaffActor, input: PlanInput): Promise<SchemePlan> {
      if (input.code === STD_PLAN_CODE) throw new ConflictError(MESSAGES.schemePlanStdFixed);
      return db.transaction(async (tx) => {
        await schemePlansRepo.holdCode(tx, input.code);
        const before = await schemePlansRepo.byCode(tx, input.code, { lock: 'update' });
        if (!before) {
          const added = await schemePlansRepo.insert(tx, {
            ...input,
            createdBy: actor.id,
            updatedBy: actor.id,
          });
          await recordAudit(tx, {
            userId: actor.id,
            action: 'schemePlan.add',
            entity: 'schemePlan',
            entityId: added.code,
            after: { ...input },
          });
          return toPlan(added, 0);
        }
        const schemes = await schemePlansRepo.schemesOn(tx, before.id);
        if (schemes > 0 && TERMS.some((term) => before[term] !== input[term])) {
          throw new ConflictError(MESSAGES.schemePlanInUse(input.code, schemes));
        }
        const after = await schemePlansRepo.update(tx, before.id, {
          ...input,
          updatedBy: actor.id,
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'schemePlan.update',
          entity: 'schemePlan',
          entityId: after.code,
          before: pick(before),
          after: pick(after),
        });
        return toPlan(after, schemes);
      });
    },
  };
}

const pick = (row: SchemePlanRow) => ({
  name: row.name,
  active: row.active,
  ...Object.fromEntries(TERMS.map((term) => [term, row[term]])),
});
