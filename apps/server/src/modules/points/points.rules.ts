import { desc, sql } from 'drizzle-orm';
import { POS_MESSAGES, type PointsRules, type PointsRulesForm } from '@kanak/contract';
import { runStatement, type Db, type Statement, type Tx } from '../../db/client.js';
import { pointsRules } from '../../db/schema.js';
import { recordAudit } from '../../lib/audit.js';

export type RulesRow = typeof pointsRules.$inferSelect;

/** Used only if the table were empty (the first migration writes these as the first version). */
const DEFAULT_RULES: Omit<RulesRow, 'id' | 'validFrom' | 'createdBy'> = {
  rupeesPerPointPaise: 10_000,
  excludedCategories: ['coin', 'bullion'],
  pointValuePaise: 100,
  minRedeemPoints: 100,
  expiryMonths: 24,
};

/** The rules in force now, as a query others may nest (a sale reads them with its own rows). */
export const CURRENT_RULES_SQL = `
    SELECT id, valid_from AS "validFrom", rupees_per_point_paise AS "rupeesPerPointPaise",
           excluded_categories AS "excludedCategories", point_value_paise AS "pointValuePaise",
           min_redeem_points AS "minRedeemPoints", expiry_months AS "expiryMonths",
           created_by AS "createdBy"
      FROM points_rules WHERE valid_from <= now()
     ORDER BY valid_from DESC, id DESC LIMIT 1`;

/** Read by every sale and every notice of points: written once, prepared. */
const CURRENT_RULES: Statement = { name: 'points_rules_current', text: CURRENT_RULES_SQL };

/** The rules as read, or the first version's if the table were empty. */
export const rulesOr = (row: RulesRow | undefined): RulesRow =>
  row ?? { id: 0, validFrom: new Date(0), createdBy: null, ...DEFAULT_RULES };

export const rulesRepo = {
  /** The rules in force now (the transaction's time). */
  async current(tx: Tx): Promise<RulesRow> {
    const [row] = await runStatement<RulesRow>(tx, CURRENT_RULES, []);
    return rulesOr(row);
  },

  history(tx: Tx) {
    return tx
      .select()
      .from(pointsRules)
      .orderBy(desc(pointsRules.validFrom), desc(pointsRules.id))
      .limit(100);
  },
};

const toWire = (row: RulesRow): PointsRules => ({
  rupeesPerPoint: row.rupeesPerPointPaise / 100,
  excludedCategories: row.excludedCategories,
  pointValue: row.pointValuePaise / 100,
  minRedeemPoints: row.minRedeemPoints,
  expiryMonths: row.expiryMonths,
  validFrom: row.validFrom.toISOString(),
  // Only the first version, written by the installation, has no owner behind it.
  isDefault: row.createdBy === null,
});

export type PointsRulesService = ReturnType<typeof createPointsRulesService>;

/** The owner's points rules: each change is a new version valid from its time on. */
export function createPointsRulesService({ db }: { db: Db }) {
  const read = async (tx: Tx) => ({
    current: toWire(await rulesRepo.current(tx)),
    history: (await rulesRepo.history(tx)).map(toWire),
  });
  return {
    get: () => db.transaction(read, { isolationLevel: 'repeatable read', accessMode: 'read only' }),

    async save(actorId: number, form: PointsRulesForm) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(pointsRules)
          .values({
            // The statement's own clock, so a sale in a later transaction sees these rules.
            validFrom: sql`clock_timestamp()`,
            rupeesPerPointPaise: form.rupeesPerPoint,
            excludedCategories: form.excludedCategories,
            pointValuePaise: form.pointValue,
            minRedeemPoints: form.minRedeemPoints,
            expiryMonths: form.expiryMonths,
            createdBy: actorId,
          })
          .returning({ id: pointsRules.id });
        await recordAudit(tx, {
          userId: actorId,
          action: 'pointsRules.save',
          entity: 'points_rules',
          entityId: row!.id,
          detail: { ...form },
        });
        return { message: POS_MESSAGES.pointsRulesSaved };
      });
    },
  };
}
