import { useEffect, useEffectEvent, useState } from 'react';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useAddressFilter, type AddressFilter } from './useAddressFilter';

/** A page of a list as the server answers it: its rows and how many match in all. */
export interface ListAnswer<Row> {
  data: readonly Row[];
  total: number;
}

/** A filter's problems, field by field, in the contract's words. */
export type FilterProblems<Filter> = Partial<Record<keyof Filter, string>>;

export interface ListQueryOptions<Filter, Answer, Key extends QueryKey> {
  /** How the filter sits in the address (a bookmark, Back and Forward). */
  address: AddressFilter<Filter>;
  /** The feature's query of one page of the list (its api.ts), for a filter. */
  query: (filter: Filter, page: number) => UseQueryOptions<Answer, Error, Answer, Key>;
  /** Rows a page: the pages the pager counts. */
  pageSize: number;
  /** The most pages the server lists, however many rows match. */
  maxPages?: number;
  /** What a search asks for, of what staff typed (trimmed, its dates defaulted). */
  tidy?: (form: Filter) => Filter;
  /** The filter Clear goes back to. */
  cleared?: Filter;
  /** The typed filter's problems, checked before anything is asked; none when it may go. */
  check?: (filter: Filter) => FilterProblems<Filter>;
  /** Tells staff a page could not be read. */
  failed: (error: unknown) => void;
}

/** What a list screen shows of its list: the part ListPage reads. */
export interface ListState<Row> {
  rows: readonly Row[];
  /** How many rows match in all (every page). */
  total: number;
  page: number;
  pages: number;
  setPage: (page: number) => void;
  /** A page is on its way. */
  loading: boolean;
  /** Lists what staff typed, from its first page (Search, and Enter in a field). */
  search: () => void;
  /** Back to the list's first filter. */
  clear: () => void;
}

/**
 * A list screen's list: its filter (typed and asked, kept in the address), the page asked, and
 * that page from the server. A search lists the typed filter from its first page, or reads the
 * list afresh when it is the one shown; a failed read is told once per failure.
 */
export function useListQuery<
  Filter,
  Answer extends ListAnswer<unknown>,
  Key extends QueryKey = QueryKey,
>({
  address,
  query,
  pageSize,
  maxPages = Infinity,
  tidy = (form) => form,
  cleared,
  check,
  failed,
}: ListQueryOptions<Filter, Answer, Key>) {
  const { asked, form, setForm, page, setPage, show } = useAddressFilter(address);
  const [problems, setProblems] = useState<FilterProblems<Filter>>({});
  const result = useQuery(query(asked, page));

  const tell = useEffectEvent((error: unknown) => failed(error));
  // Told once per failure: the same failure again has a new time.
  useEffect(() => {
    if (result.error) tell(result.error);
  }, [result.error, result.errorUpdatedAt]);

  const search = (typed: Filter = form) => {
    const next = tidy(typed);
    const found = check?.(next) ?? {};
    setProblems(found);
    if (Object.keys(found).length === 0) show(next, () => void result.refetch());
  };

  // A list that could not be read shows no rows, not the rows of the filter before.
  const answer = result.isError ? undefined : result.data;
  const total = answer?.total ?? 0;
  const rows = (answer?.data ?? []) as Answer['data'];

  return {
    /** The filter the list shows (the address's). */
    asked,
    /** The filter as staff are typing it. */
    form,
    edit: (patch: Partial<Filter>) => {
      setForm((current) => ({ ...current, ...patch }));
      setProblems({});
    },
    problems,
    /** The page shown, unless it could not be read. */
    answer,
    result,
    rows,
    total,
    page,
    pages: Math.min(maxPages, Math.max(1, Math.ceil(total / pageSize))),
    setPage,
    loading: result.isFetching,
    search: () => search(),
    /** Lists `filter` as staff typed it (a report's Clear, which lists its defaults afresh). */
    searchFor: search,
    clear: () => {
      setProblems({});
      if (cleared !== undefined) show(cleared);
    },
  };
}
