import { useState } from 'react';
import { useSearchParams } from 'react-router';

/** How a list screen's filter sits in its address (`?from=…&branch=…`). */
export interface AddressFilter<Filter> {
  /** The filter an address asks for: a bookmark's, a card's link, Back's. */
  read: (params: URLSearchParams) => Filter;
  /** The address's query for a filter: only the fields set, so the address stays short. */
  write: (filter: Filter) => Record<string, string>;
}

const keyOf = (query: Record<string, string>) => new URLSearchParams(query).toString();

/**
 * A list screen's filter, kept in the address: a deep link opens the list it names, and Back
 * and Forward return to the lists asked before. `form` is what staff are typing; `asked` is
 * what the address (and so the list) shows; `page` starts again at 1 for every other filter.
 */
export function useAddressFilter<Filter>({ read, write }: AddressFilter<Filter>) {
  const [params, setParams] = useSearchParams();
  const asked = read(params);
  const askedKey = keyOf(write(asked));
  const [form, setForm] = useState<Filter>(asked);
  const [page, setPage] = useState(1);

  // Another address (Back, Forward, a link, the sidebar's entry) asks anew from its first
  // page. The address a search of this screen put there keeps the form as it is now: the
  // router may take the new address a moment later, after more typing.
  const [seen, setSeen] = useState(askedKey);
  const [ours, setOurs] = useState<string | null>(null);
  if (seen !== askedKey) {
    setSeen(askedKey);
    setOurs(null);
    if (askedKey !== ours) {
      setForm(asked);
      setPage(1);
    }
  }

  /**
   * Lists `next` from its first page: a new address (Back returns to this one), or, asked
   * again as it stands, `askAgain` (a search on the first page reads the list afresh).
   */
  const show = (next: Filter, askAgain?: () => void) => {
    const query = write(next);
    setForm(next);
    setPage(1);
    if (keyOf(query) !== askedKey) {
      setOurs(keyOf(query));
      setParams(query);
    } else if (page === 1) askAgain?.();
  };
  const edit = (patch: Partial<Filter>) => setForm((current) => ({ ...current, ...patch }));

  return { asked, form, setForm, edit, page, setPage, show };
}

/** A filter of text fields ('' meaning "any") as the address holds it: the fields set. */
export function textFields<Filter extends { [Field in keyof Filter]: string }>(
  empty: Filter,
): AddressFilter<Filter> {
  const fields = Object.keys(empty) as (keyof Filter & string)[];
  return {
    read: (params) => {
      const filter = { ...empty };
      for (const field of fields) {
        const value = params.get(field);
        if (value) filter[field] = value as Filter[typeof field];
      }
      return filter;
    },
    write: (filter) =>
      Object.fromEntries(fields.filter((field) => filter[field] !== '').map((f) => [f, filter[f]])),
  };
}
