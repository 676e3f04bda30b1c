import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { DataTable, type DataTableProps } from './DataTable';
import { FilterPanel, GenerateButton } from './FilterPanel';
import { PageHeader } from './PageHeader';
import { Pager } from './Pager';
import type { ListState } from './useListQuery';

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

interface ListPageParts {
  title: string;
  /** Beside the heading (Print, CSV). */
  actions?: ReactNode;
  /** Under the heading, above the filters. */
  intro?: ReactNode;
  /** Above the table (the counts of the whole filter). */
  above?: ReactNode;
  /** The table's section name, when the table and its buttons form one section. */
  section?: string;
  /** Under the pager (Print and CSV, where they sit below the list). */
  below?: ReactNode;
  /** The list on paper: when set, the screen above is not printed, only this. */
  printout?: ReactNode;
  /** Dialogs the list opens. */
  children?: ReactNode;
}

/** A list the screen wires itself: its rows, its filter's search, its pager. */
interface GivenListProps<Row> extends ListPageParts {
  list?: undefined;
  filters?: ListFilters;
  table: DataTableProps<Row>;
  /** Under the table; none when the list has nothing to page. */
  pager: ListPager | null;
}

/** The filter of a list ListPage runs: searching, its pending state and Clear are the list's. */
interface ListFilterFields extends Omit<ListFilters, 'onSubmit' | 'pending' | 'clear'> {
  /** Clear's label (back to the list's first filter), or Clear's own action. */
  clear?: string | ListFilters['clear'];
}

/** A list ListPage runs (useListQuery): the screen says what it shows, not how it is asked. */
interface OwnedListProps<Row> extends ListPageParts {
  list: ListState<Row>;
  filters?: ListFilterFields;
  table: Omit<DataTableProps<Row>, 'rows' | 'loading'>;
  /** Where the list stands, for the pager ("Page 2 of 3 · 120 changes"). */
  pageOf: (page: number, pages: number, total: number) => string;
  pager?: undefined;
}

type ListPageProps<Row> = GivenListProps<Row> | OwnedListProps<Row>;

/** An owned list's parts as a given list's: the search, rows, loading and pager are the list's. */
function wired<Row>({ list, filters, table, pageOf, ...parts }: OwnedListProps<Row>) {
  const clear = filters?.clear;
  return {
    ...parts,
    filters: filters && {
      ...filters,
      onSubmit: list.search,
      pending: list.loading,
      clear: typeof clear === 'string' ? { label: clear, onClick: list.clear } : clear,
    },
    table: { ...table, rows: list.rows, loading: list.loading },
    pager: {
      page: list.page,
      pages: list.pages,
      status: pageOf(list.page, list.pages, list.total),
      onPage: list.setPage,
    },
  } satisfies GivenListProps<Row>;
}

/**
 * A list screen (reports, Scheme Summary, Audit Trail, Delivery Log): its heading and
 * buttons, the filter panel, a table a page at a time with the pager, and, when it prints, the
 * printout that alone goes on paper. Given `list` (useListQuery), it runs the list itself: the
 * search, the rows and their loading, the pages; the screen declares its filter's fields, its
 * columns and where its pager stands.
 */
export function ListPage<Row>(props: ListPageProps<Row>) {
  return <ListLayout {...(props.list ? wired(props) : props)} />;
}

function ListLayout<Row>({
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
}: GivenListProps<Row>) {
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
