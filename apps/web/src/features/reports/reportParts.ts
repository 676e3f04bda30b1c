import type { ReactNode } from 'react';
import {
  LIMITS,
  REPORT_DATES,
  REPORT_TEXTS,
  addDays,
  formatSlashDate,
  type ReportName,
} from '@kanak/contract';
import type { ReportFilter } from './api';

/** A row under a report's table: each total under its column's key (the others stay empty). */
export interface ReportFooterRow {
  key: string;
  cells: Partial<Record<string, ReactNode>>;
}

/** The dates a report shows until staff choose others: what it is most often opened for. */
export function defaultDates(name: ReportName, today: string): ReportFilter {
  switch (name) {
    case 'collections':
      return { from: today, to: today };
    case 'overdue':
      return { asOf: today };
    case 'maturing':
      return { from: today, to: addDays(today, LIMITS.maturingWithinDays) };
    default:
      return {};
  }
}

/** The filter fields a report screen keeps in its address (`?from=…&branch=…`). */
const FIELDS = ['from', 'to', 'asOf', 'by', 'branch'] as const;

/**
 * The filter a report is asked with: from the address (a dashboard card's link, a bookmark),
 * each date the report reads falling back to its default; a date it does not read is dropped,
 * as the server would refuse it.
 */
export function filterFromAddress(
  name: ReportName,
  params: URLSearchParams,
  today: string,
): ReportFilter {
  const defaults = defaultDates(name, today);
  const filter: ReportFilter = {};
  for (const field of REPORT_DATES[name]) {
    const value = params.get(field) || defaults[field];
    if (value) filter[field] = value;
  }
  // Only the cash book lists by the day entered; by the day dated is its default, left unsaid.
  if (name === 'collections' && params.get('by') === 'entered') filter.by = 'entered';
  const branch = params.get('branch');
  if (branch) filter.branch = branch;
  return filter;
}

/** The address's query for a filter: only the fields set. */
export function addressOf(filter: ReportFilter): Record<string, string> {
  const query: Record<string, string> = {};
  for (const field of FIELDS) {
    const value = filter[field];
    if (value) query[field] = value;
  }
  return query;
}

/** Points and counts as staff read them: Indian digit grouping (1,23,456). */
export const grouped = (value: number) => value.toLocaleString('en-IN');

const texts = REPORT_TEXTS;

/** The dates a printed report covers, in words; none for a report that reads no dates. */
function datesLine(name: ReportName, asked: ReportFilter, today: string) {
  const dates = REPORT_DATES[name];
  if (dates.length === 0) return null;
  if (dates.includes('asOf')) return texts.printAsOf(formatSlashDate(asked.asOf ?? today));
  if (!asked.from && !asked.to) return texts.printAllDates;
  return texts.printDates(
    asked.from ? formatSlashDate(asked.from) : '…',
    asked.to ? formatSlashDate(asked.to) : '…',
  );
}

/**
 * What a printed report was asked for, under its title: its dates, the cash book by the day
 * entered, and its branch (the one chosen; the chain for the owner; a manager's own).
 */
export function askedLines(
  name: ReportName,
  asked: ReportFilter,
  today: string,
  who: { mayPickBranch: boolean; branch: string | null },
): string[] {
  const branchLine = asked.branch
    ? texts.printBranch(asked.branch)
    : who.mayPickBranch
      ? texts.wholeChain
      : who.branch
        ? texts.printBranch(who.branch)
        : null;
  return [
    datesLine(name, asked, today),
    asked.by === 'entered' ? texts.printByEntered : null,
    branchLine,
  ].filter((line) => line !== null);
}
