import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatMonthName, formatRupees, PORTAL_TEXTS } from '@kanak/contract';
import type { MemberScheme, Passbook } from './api';
import { formatDate } from './format';

const texts = PORTAL_TEXTS.home;

type Scheme = MemberScheme | Passbook['scheme'];

/**
 * Where the scheme's payments stand, as the server's pay rule has it: the installment Pay
 * takes now (its number, month and due day), or, with none to take now, the day the next one
 * falls due. A scheme that is not running says when its next installment is due, if any.
 */
export function NextInstallment({ scheme }: { scheme: Scheme }) {
  const next = scheme.nextInstallment;
  const lines: string[] = [];
  if (scheme.status !== 'a')
    lines.push(scheme.nextDue ? texts.nextDue(formatDate(scheme.nextDue)) : texts.allPaid);
  else if (!next)
    lines.push(scheme.paid >= scheme.installments ? texts.allPaid : texts.nothingLeft);
  else if (!next.now) lines.push(texts.nothingDue(formatDate(next.dueOn)));
  else {
    const words = next.overdue ? texts.overdue : texts.due;
    lines.push(
      words(
        next.installmentNo,
        scheme.installments,
        formatMonthName(next.month),
        formatDate(next.dueOn),
      ),
    );
    if (!next.online) lines.push(texts.payAtShop);
  }
  return (
    <>
      {lines.map((line) => (
        <Typography
          key={line}
          data-testid="next-installment"
          color={next?.now && next.overdue ? 'warning.main' : 'text.secondary'}
          sx={{ fontWeight: next?.now ? 600 : 400 }}
        >
          {line}
        </Typography>
      ))}
    </>
  );
}

/**
 * A running scheme at maturity, with every installment still to pay paid on time: what the
 * customer will have paid, the shop's bonus, and what they get (a weight scheme: its gold).
 */
export function Maturity({ scheme }: { scheme: MemberScheme }) {
  const { maturity } = scheme;
  if (!maturity) return null;
  const rows: [string, string][] = [
    [texts.maturityPaid, formatRupees(maturity.paid)],
    [texts.maturityBonus, formatRupees(maturity.bonus)],
    ...(maturity.total === undefined
      ? []
      : [[texts.maturityTotal, formatRupees(maturity.total)] as [string, string]]),
  ];
  return (
    <Box
      component="section"
      aria-label={`${texts.maturity} · ${texts.scheme(scheme.schemeid)}`}
      sx={{ mt: 1, p: 1.5, borderRadius: 2, bgcolor: 'background.default' }}
    >
      <Typography component="h4" sx={{ fontWeight: 700 }}>
        {texts.maturity}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {texts.maturityIf(formatDate(scheme.matdt))}
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: '1fr auto', columnGap: 2, rowGap: 0.5, m: 0 }}
      >
        {rows.map(([term, value]) => (
          <Box key={term} sx={{ display: 'contents' }}>
            <Typography component="dt">{term}</Typography>
            <Typography
              component="dd"
              sx={{ m: 0, fontWeight: 700, textAlign: 'right', whiteSpace: 'nowrap' }}
            >
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {maturity.total === undefined && (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {texts.maturityGold}
        </Typography>
      )}
    </Box>
  );
}
