import { COLLECTIONS_BY, REPORT_DATES, REPORT_TEXTS, type ReportName } from '@kanak/contract';
import { DateField } from '../../components/DateField';
import { BranchFilter, DateRangeFields } from '../../components/FilterPanel';
import { SelectField } from '../../components/SelectField';
import type { ReportFilter } from './api';

const texts = REPORT_TEXTS;

interface ReportFilterFieldsProps {
  name: ReportName;
  form: ReportFilter;
  edit: (patch: Partial<ReportFilter>) => void;
  today: string;
  /** The owner chooses the branch; a manager's reports are their own branch's. */
  mayPickBranch: boolean;
}

/** How many fields a report's filter has: none, and it has no filter panel. */
export const reportFieldCount = (name: ReportName, mayPickBranch: boolean) =>
  REPORT_DATES[name].length + (name === 'collections' ? 1 : 0) + (mayPickBranch ? 1 : 0);

/**
 * A report's filter: the dates it reads (From and To, which go together, or As of), how the
 * cash book lists its installments, and the owner's branch.
 */
export function ReportFilterFields({
  name,
  form,
  edit,
  today,
  mayPickBranch,
}: ReportFilterFieldsProps) {
  const dates = REPORT_DATES[name];
  return (
    <>
      {dates.includes('from') && <DateRangeFields labels={texts} value={form} onChange={edit} />}
      {dates.includes('asOf') && (
        <DateField
          label={texts.asOf}
          name="asOf"
          value={form.asOf ?? ''}
          min={today}
          onChange={(asOf) => edit({ asOf })}
        />
      )}
      {name === 'collections' && (
        <SelectField
          label={texts.by}
          name="by"
          value={form.by ?? 'dated'}
          options={COLLECTIONS_BY.map((by) => ({ value: by, label: texts.byOptions[by] }))}
          onChange={(by) => edit({ by: by === 'entered' ? by : undefined })}
        />
      )}
      {mayPickBranch && (
        <BranchFilter
          label={texts.branch}
          anyLabel={texts.wholeChain}
          value={form.branch ?? ''}
          onChange={(branch) => edit({ branch })}
        />
      )}
    </>
  );
}
