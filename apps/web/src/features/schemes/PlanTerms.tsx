import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { SCHEME_PLAN_TEXTS, STD_PLAN_CODE, formatRupees, type SchemePlan } from '@kanak/contract';
import { todayGoldRateQuery } from '../../lib/gold-rate';
import { schemePlansQuery } from '../../lib/scheme-plans';

const planTexts = SCHEME_PLAN_TEXTS;

/**
 * The plans offered now, and the one chosen of them. Until they are read (or when they cannot
 * be), the standard scheme is the one choice, and a scheme starts exactly as it always did.
 */
export function usePlanChoice(chosen: string) {
  const plans = useQuery(schemePlansQuery);
  const offered = (plans.data ?? []).filter((plan) => plan.active);
  const options = [
    ...(offered.some((plan) => plan.code === STD_PLAN_CODE)
      ? []
      : [{ code: STD_PLAN_CODE, name: planTexts.standardName }]),
    ...offered,
  ].map((plan) => ({ value: plan.code, label: planTexts.planOption(plan.code, plan.name) }));
  // A plan withdrawn while chosen falls back to the standard one.
  const code = options.some((option) => option.value === chosen) ? chosen : STD_PLAN_CODE;
  return { code, options, plan: offered.find((candidate) => candidate.code === code) };
}

/**
 * The chosen plan's name and terms; a weight plan adds how its installments buy gold, at
 * today's rate. The name is said in full here, on as many lines as it takes: a narrow plan
 * field cuts it.
 */
export function PlanTerms({ plan }: { plan: SchemePlan }) {
  const weight = plan.kind === 'weight';
  const rate = useQuery({ ...todayGoldRateQuery, enabled: weight });
  return (
    <Box sx={{ gridColumn: '1 / -1' }}>
      <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {plan.name}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {planTexts.terms(
          plan.installments,
          formatRupees(plan.minAmount),
          plan.bonusPercent,
          plan.graceDays,
        )}
      </Typography>
      {weight && (
        <Alert
          role="note"
          severity={rate.isSuccess && rate.data === null ? 'warning' : 'info'}
          sx={{ mt: 1 }}
        >
          {planTexts.weightNote}{' '}
          {rate.isSuccess &&
            (rate.data
              ? planTexts.rateToday(formatRupees(rate.data.rate22k))
              : planTexts.noRateToday)}
        </Alert>
      )}
    </Box>
  );
}
