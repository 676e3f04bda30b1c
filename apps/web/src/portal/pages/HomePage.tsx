import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatRupees, PORTAL_TEXTS } from '@kanak/contract';
import { me, type Me, type MemberScheme } from '../api';
import { useShopBranding } from '../branding';
import { daysAfter, formatDate, formatGrams, formatPoints, shopToday } from '../format';
import { LinkButton, LoadFailed, Loading, Panel, ScreenTitle } from '../parts';
import { portalPaths } from '../router';
import { Maturity, NextInstallment } from '../SchemeFigures';
import { useLoad } from '../useLoad';

const texts = PORTAL_TEXTS.home;

/** Points and their lots expiring within 30 days of the shop's today. */
function Points({ points, timeZone }: { points: Me['points']; timeZone?: string }) {
  const today = shopToday(timeZone);
  const soon = daysAfter(today, 30);
  const lots = points.lots.filter((lot) => lot.expiresOn !== null && lot.expiresOn <= soon);
  return (
    <Panel label={texts.points}>
      <Typography component="h2" variant="h6">
        {texts.points}
      </Typography>
      <Typography sx={{ fontSize: 28, fontWeight: 700, color: 'primary.dark' }}>
        {texts.balance(formatPoints(points.balance))}
      </Typography>
      <Typography color="text.secondary">{texts.worth(formatRupees(points.value))}</Typography>
      <Box sx={{ mt: 1.5 }}>
        {points.expiringIn30Days > 0 ? (
          <>
            <Typography sx={{ fontWeight: 600, color: 'warning.main' }}>
              {texts.expiring(formatPoints(points.expiringIn30Days))}
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {lots.map((lot, i) => (
                <li key={`${lot.expiresOn}-${i}`}>
                  {texts.lot(formatPoints(lot.points), formatDate(lot.expiresOn))}
                </li>
              ))}
            </Box>
          </>
        ) : (
          <Typography color="text.secondary">{texts.noneExpiring}</Typography>
        )}
      </Box>
      <LinkButton to={portalPaths.points()} variant="outlined" sx={{ mt: 2 }}>
        {texts.pointsHistory}
      </LinkButton>
    </Panel>
  );
}

/**
 * One scheme: its installments paid, the one Pay takes now or when the next is due, what it
 * pays at maturity, and its passbook. Pay shows only when the server's pay call would take an
 * installment now.
 */
function Scheme({ scheme }: { scheme: MemberScheme }) {
  const payable = scheme.nextInstallment?.online === true;
  return (
    <Box
      component="li"
      sx={{ listStyle: 'none', borderTop: '1px solid', borderColor: 'divider', pt: 1.5, mt: 1.5 }}
    >
      <Typography component="h3" sx={{ fontWeight: 700 }}>
        {texts.scheme(scheme.schemeid)}
        <Box component="span" sx={{ fontWeight: 400, color: 'text.secondary' }}>
          {` · ${PORTAL_TEXTS.status[scheme.status] ?? scheme.status}`}
        </Box>
      </Typography>
      {scheme.plan && <Typography color="text.secondary">{scheme.plan.name}</Typography>}
      <Typography>{texts.installment(formatRupees(scheme.amount))}</Typography>
      <Typography>{texts.paidOf(scheme.paid, scheme.installments)}</Typography>
      {scheme.grams !== undefined && (
        <Typography>{texts.gold(formatGrams(scheme.grams))}</Typography>
      )}
      <NextInstallment scheme={scheme} />
      {scheme.maturity ? (
        <Maturity scheme={scheme} />
      ) : (
        <Typography color="text.secondary">{texts.matures(formatDate(scheme.matdt))}</Typography>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
        <LinkButton
          to={portalPaths.passbook(scheme.schemeid)}
          variant="outlined"
          aria-label={texts.passbook(scheme.schemeid)}
        >
          {texts.passbookButton}
        </LinkButton>
        {payable && (
          <LinkButton
            to={portalPaths.pay(scheme.schemeid)}
            variant="contained"
            aria-label={texts.pay(scheme.schemeid)}
          >
            {texts.payButton}
          </LinkButton>
        )}
      </Box>
    </Box>
  );
}

/** The customer's home: their points and what expires soon, their tier, their schemes. */
export function HomePage() {
  const shop = useShopBranding();
  const { state, reload } = useLoad(me, 'me');
  return (
    <>
      <ScreenTitle>
        {state.status === 'done' ? texts.hello(state.data.custname) : texts.title}
      </ScreenTitle>
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && <LoadFailed error={state.error} retry={reload} />}
      {state.status === 'done' && (
        <>
          {state.data.tier?.tierName && (
            <Typography sx={{ mb: 2, fontWeight: 600, color: 'secondary.dark' }}>
              {texts.tier(state.data.tier.tierName)}
            </Typography>
          )}
          <Points points={state.data.points} timeZone={shop?.storeTimezone} />
          <Panel label={texts.schemes}>
            <Typography component="h2" variant="h6">
              {texts.schemes}
            </Typography>
            {state.data.schemes.length === 0 ? (
              <Typography color="text.secondary">{texts.noSchemes}</Typography>
            ) : (
              <Box component="ul" sx={{ m: 0, p: 0 }}>
                {state.data.schemes.map((scheme) => (
                  <Scheme key={scheme.schemeid} scheme={scheme} />
                ))}
              </Box>
            )}
          </Panel>
          <LinkButton to={portalPaths.consents} variant="outlined" fullWidth>
            {texts.consents}
          </LinkButton>
        </>
      )}
    </>
  );
}
