import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { DataTable, type DataTableProps } from './DataTable';
import { FilterPanel, GenerateButton } from './FilterPanel';
import { PageHeader } from './PageHeader';
import { Pager } from './Pager';

interface ListFilters {
  /** The filter panel's heading. */
  title: string;
  /** The form's grid tracks, per breakpoint; the buttons take the last track. */
  columns: Partial<Record<'xs' | 'sm' | 'md' | 'lg', string>>;
  /** The search (the form's submit, Enter included). */
  onSubmit: () => void;
  /** The search button's label. */
  search: string;
  /** A page is on its way: the search button says so with this label. */
  pending: boolean;
  pendingLabel: string;
  /** Back to the screen's first filter, when the screen has such a button. */
  clear?: { label: string; onClick: () => void };
  /** The filter's fields, in grid order. */
  children: ReactNode;
}

interface ListPager {
  page: number;
  pages: number;
  status: string;
  onPage: (page: number) => void;
}

interface ListPageProps<Row> {
  title: string;
  /** Beside the heading (Print, CSV). */
  actions?: ReactNode;
  /** Under the heading, above the filters. */
  intro?: ReactNode;
  filters?: ListFilters;
  /** Above the table (the counts of the whole filter). */
  above?: ReactNode;
  table: DataTableProps<Row>;
  /** The table's section name, when the table and its buttons form one section. */
  section?: string;
  /** Under the table; none when the list has nothing to page. */
  pager: ListPager | null;
  /** Under the pager (Print and CSV, where they sit below the list). */
  below?: ReactNode;
  /** The list on paper: when set, the screen above is not printed, only this. */
  printout?: ReactNode;
  /** Dialogs the list opens. */
  children?: ReactNode;
}

/**
 * A list screen (reports, Scheme Summary, Audit Trail, Delivery Log): its heading and
 * buttons, the filter panel, a table a page at a time with the pager, and, when it prints, the
 * printout that alone goes on paper.
 */
export function ListPage<Row>({
  title,
  actions,
  intro,
  filters,
  above,
  table,
  section,
  pager,
  below,
  printout,
  children,
}: ListPageProps<Row>) {
  const list = (
    <>
      <DataTable {...table} />
      {pager && (
        <Pager
          page={pager.page}
          pages={pager.pages}
          status={pager.status}
          busy={table.loading ?? false}
          onPage={pager.onPage}
        />
      )}
      {below}
    </>
  );
  const search = filters && (
    <GenerateButton pending={filters.pending} pendingLabel={filters.pendingLabel}>
      {filters.search}
    </GenerateButton>
  );
  const screen = (
    <>
      <PageHeader title={title}>{actions}</PageHeader>
      {intro}
      {filters && (
        <FilterPanel title={filters.title} columns={filters.columns} onSubmit={filters.onSubmit}>
          {filters.children}
          {filters.clear ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              {search}
              <Button
                type="button"
                size="large"
                sx={{ minHeight: 56 }}
                onClick={filters.clear.onClick}
              >
                {filters.clear.label}
              </Button>
            </Stack>
          ) : (
            search
          )}
        </FilterPanel>
      )}
      {above}
      {section ? (
        <Box component="section" aria-label={section}>
          {list}
        </Box>
      ) : (
        list
      )}
    </>
  );
  return (
    <>
      {printout === undefined ? screen : <Box className="no-print">{screen}</Box>}
      {printout}
      {children}
    </>
  );
}
