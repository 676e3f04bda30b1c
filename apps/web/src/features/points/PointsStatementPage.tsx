import { useEffect, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { useQuery } from '@tanstack/react-query';
import {
  LEDGER_TEXTS,
  PAGE_TITLES,
  financialYearStart,
  pointsStatementRequest,
  type PointsStatementFilter,
  type StatementRow,
} from '@kanak/contract';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { DateField } from '../../components/DateField';
import { FilterPanel, GenerateButton } from '../../components/FilterPanel';
import { SHOWN_ONLY } from '../../components/shownOnly';
import { PageHeader } from '../../components/PageHeader';
import { saveFile } from '../../components/saveFile';
import { useStoreToday } from '../../components/useStoreToday';
import { financialYearQuery, statementQuery } from './api';
import { PrintLedger } from './PrintLedger';
import { StatementEditDialog } from './StatementEditDialog';
import { statementCsv, statementFileName, type Statement } from './statementLedger';
import { StatementTable } from './StatementTable';

const texts = LEDGER_TEXTS.statement;

const sameFilter = (a: PointsStatementFilter | null, b: PointsStatementFilter) =>
  a !== null && a.MOBILENO === b.MOBILENO && a.DFROM === b.DFROM && a.DTO === b.DTO;

/** Points Statement (/home/statement): the points ledger of a customer for a date range. */
export function PointsStatementPage() {
  const today = useStoreToday();
  const [customer, setCustomer] = useState<CustomerOption | null>(null);
  // null: the default (Date from: the financial year's start from get-fyear; Date to: today).
  const [dateFromInput, setDateFrom] = useState<string | null>(null);
  const [dateToInput, setDateTo] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<{
    filter: PointsStatementFilter;
    custname: string;
  } | null>(null);
  const [editing, setEditing] = useState<StatementRow | null>(null);

  const financialYear = useQuery(financialYearQuery);
  const statementResult = useQuery(statementQuery(submitted?.filter ?? null));

  useEffect(() => {
    // Financial-year and statement failures are logged only.
    if (financialYear.error) console.error('Financial year fetch failed', financialYear.error);
  }, [financialYear.error]);
  useEffect(() => {
    if (statementResult.error) console.error('Statement generation failed', statementResult.error);
  }, [statementResult.error]);

  const dateFrom = dateFromInput ?? financialYear.data ?? financialYearStart(today);
  const dateTo = dateToInput ?? today;
  const check = customer
    ? pointsStatementRequest.safeParse({
        MOBILENO: customer.MOBILENO,
        DFROM: dateFrom,
        DTO: dateTo,
      })
    : null;
  const dateProblem =
    check && !check.success
      ? check.error.issues.find((issue) => issue.path[0] === 'DFROM' || issue.path[0] === 'DTO')
      : undefined;

  const statement = useMemo<Statement | null>(
    () => (submitted && statementResult.data ? { ...submitted, rows: statementResult.data } : null),
    [submitted, statementResult.data],
  );
  const rows = statement?.rows ?? [];

  const generate = () => {
    if (!customer || !check?.success) return;
    const filter = { MOBILENO: customer.MOBILENO, DFROM: dateFrom, DTO: dateTo };
    if (sameFilter(submitted?.filter ?? null, filter)) void statementResult.refetch();
    else setSubmitted({ filter, custname: customer.CUSTNAME });
  };

  return (
    <>
      <Box className="no-print">
        <PageHeader title={PAGE_TITLES.statement} />
        <FilterPanel
          title={texts.panel}
          columns={{
            xs: '1fr',
            sm: '1fr 1fr',
            md: 'repeat(4, minmax(min-content, 1fr))',
          }}
          onSubmit={generate}
          // The search and the name take two columns each; the dates and the button one.
          sx={{ '& > .wide': { gridColumn: { md: 'span 2' } } }}
        >
          <Box className="wide">
            <CustomerSearch
              value={customer}
              onSelect={setCustomer}
              label={texts.search}
              autoFocus
            />
          </Box>
          <TextField
            className="wide"
            label={texts.name}
            value={customer?.CUSTNAME ?? ''}
            slotProps={SHOWN_ONLY}
          />
          <DateField
            label={texts.dateFrom}
            value={dateFrom}
            onChange={setDateFrom}
            max={dateTo || today}
            error={Boolean(dateProblem && dateProblem.path[0] === 'DFROM')}
            helperText={dateProblem?.path[0] === 'DFROM' ? dateProblem.message : undefined}
          />
          <DateField
            label={texts.dateTo}
            value={dateTo}
            onChange={setDateTo}
            min={dateFrom || undefined}
            error={Boolean(dateProblem && dateProblem.path[0] === 'DTO')}
            helperText={dateProblem?.path[0] === 'DTO' ? dateProblem.message : undefined}
          />
          <GenerateButton
            size="medium"
            disabled={!customer || !check?.success}
            pending={statementResult.isFetching}
            pendingLabel={texts.generating}
            sx={{ justifySelf: { md: 'start' } }}
          >
            {texts.generate}
          </GenerateButton>
        </FilterPanel>
        <StatementTable
          statement={statement}
          loading={statementResult.isFetching}
          onEdit={setEditing}
        />
        {statement && rows.length > 0 && (
          <Stack direction="row" spacing={2} sx={{ mt: 2, justifyContent: 'flex-end' }}>
            <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()}>
              {texts.print}
            </Button>
            <Button
              variant="contained"
              color="secondary"
              startIcon={<DownloadIcon />}
              onClick={() => saveFile(statementCsv(statement), statementFileName(statement))}
            >
              {texts.downloadCsv}
            </Button>
          </Stack>
        )}
      </Box>
      {statement && rows.length > 0 && <PrintLedger statement={statement} />}
      {editing && (
        <StatementEditDialog
          key={editing.MRN}
          row={editing}
          today={today}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
