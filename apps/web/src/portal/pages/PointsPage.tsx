import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { MEMBER_LIMITS, PORTAL_TEXTS } from '@kanak/contract';
import { pointsPage } from '../api';
import { formatDate, formatPoints } from '../format';
import { BackLink, LinkButton, LoadFailed, Loading, ScreenTitle, PHONE_TABLE } from '../parts';
import { portalPaths } from '../router';
import { useLoad } from '../useLoad';

const texts = PORTAL_TEXTS.points;

/** Signed, as a ledger reads: +120, −40. */
const signed = (points: number) =>
  points > 0 ? `+${formatPoints(points)}` : points < 0 ? `−${formatPoints(-points)}` : '0';

/** The customer's points ledger, newest first, a page at a time. */
export function PointsPage({ page }: { page: number }) {
  const { state, reload } = useLoad(() => pointsPage(page), String(page));
  const pages =
    state.status === 'done'
      ? Math.max(1, Math.ceil(state.data.total / MEMBER_LIMITS.pointsPageSize))
      : 1;
  return (
    <>
      <BackLink />
      <ScreenTitle>{texts.title}</ScreenTitle>
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && <LoadFailed error={state.error} retry={reload} />}
      {state.status === 'done' &&
        (state.data.data.length === 0 ? (
          <Typography>{texts.none}</Typography>
        ) : (
          <>
            <Table size="small" aria-label={texts.table} sx={PHONE_TABLE}>
              <TableHead>
                <TableRow>
                  <TableCell>{texts.date}</TableCell>
                  <TableCell>{texts.kind}</TableCell>
                  <TableCell align="right">{texts.points}</TableCell>
                  <TableCell align="right">{texts.balance}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {state.data.data.map((row, i) => (
                  <TableRow key={`${row.date}-${i}`}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(row.date)}</TableCell>
                    <TableCell>
                      {row.kind}
                      {(row.invoiceNo || row.branch) && (
                        <Typography
                          variant="body2"
                          color="text.secondary"
                          component="span"
                          sx={{ display: 'block' }}
                        >
                          {[row.invoiceNo && `${texts.invoice} ${row.invoiceNo}`, row.branch]
                            .filter(Boolean)
                            .join(' · ')}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {signed(row.points)}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {formatPoints(row.balance)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Box
              component="nav"
              aria-label={texts.page(page, pages)}
              sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mt: 2 }}
            >
              {page > 1 ? (
                <LinkButton to={portalPaths.points(page - 1)}>{`← ${texts.previous}`}</LinkButton>
              ) : (
                <span />
              )}
              <Typography variant="body2">{texts.page(page, pages)}</Typography>
              {page < pages ? (
                <LinkButton to={portalPaths.points(page + 1)}>{`${texts.next} →`}</LinkButton>
              ) : (
                <span />
              )}
            </Box>
          </>
        ))}
    </>
  );
}
