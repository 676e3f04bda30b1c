import type { Readable } from 'node:stream';
import type pg from 'pg';
import type { SQL } from 'drizzle-orm';
import {
  addDays,
  cleanName,
  COLLECTION_KIND_LABELS,
  COLLECTION_MODE_LABELS,
  formatSlashDate,
  LIMITS,
  INSTALLMENT_MODES,
  REPORT_CSV,
  REPORT_MESSAGES,
  reportCsvFileName,
  type CollectionRow,
  type CollectionsFigure,
  type DashboardData,
  type MaturingRow,
  type MyDayData,
  type OverdueRow,
  type InstallmentMode,
  type PointsLiabilityRow,
  type ReportFilter,
  type ReportName,
} from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import type { Reads, ReadSource } from '../../db/reads.js';
import { branchOf } from '../../lib/branch-scope.js';
import type { OpenCsvOn } from '../../lib/csv-stream.js';
import { InvalidInputError } from '../../lib/errors.js';
import type { SessionStaff } from '../../plugins/types.js';
import type { BranchesRepo } from '../branches/index.js';
import type { PlanGrace } from '../schemes/index.js';
import {
  pageRows,
  queryText,
  reportQueries,
  reportsRepo,
  type CollectionDbRow,
  type LiabilityDbRow,
  type MaturingDbRow,
  type OverdueDbRow,
  type Scope,
  type UnrecoveredDbRow,
} from './reports.repo.js';

export type ReportsService = ReturnType<typeof createReportsService>;

interface Deps {
  /** Where the owner's view reads: the reports replica when it is fit, else the primary. */
  reads: Pick<Reads, 'run'>;
  today: () => string;
  timeZone: string;
  /** The branches a filter names (the branches module owns them). */
  branches: Pick<BranchesRepo, 'findByCode' | 'findById'>;
  /** The points rules in force: a point's value in paise (the points module owns them). */
  pointValuePaise: (tx: Tx) => Promise<number>;
  /** Customers per tier that applies on a day (the points module owns the tiers). */
  tierCounts(tx: Tx, day: string): Promise<{ code: string; name: string; customers: number }[]>;
  openCsv: OpenCsvOn;
}

/** Rupees from paise, exact to the paisa. */
const rupees = (paise: number) => Math.round(paise) / 100;

/** `YYYY-MM` of the month `shift` months from the one of `isoDate`. */
function monthOf(isoDate: string, shift = 0) {
  const date = new Date(
    Date.UTC(Number(isoDate.slice(0, 4)), Number(isoDate.slice(5, 7)) - 1 + shift, 1),
  );
  return date.toISOString().slice(0, 7);
}

const noModes = () =>
  Object.fromEntries(INSTALLMENT_MODES.map((mode) => [mode, 0])) as Record<InstallmentMode, number>;
const emptyCollections = (): CollectionsFigure => ({
  amount: 0,
  installments: 0,
  byMode: noModes(),
});
const addTo = (figure: CollectionsFigure, mode: string, amount: number, installments: number) => {
  figure.amount += amount;
  figure.installments += installments;
  figure.byMode[mode as InstallmentMode] += amount;
};

/** One report for one filter and scope: a page of it, its totals over all rows, its CSV. */
interface Report<Row, Totals> {
  page(tx: Tx, limit: number, offset: number): Promise<Row[]>;
  totals(tx: Tx): Promise<{ total: number; totals: Totals }>;
  csv(pool: pg.Pool): Promise<Readable>;
}

const dateCell = (isoDate: string | null) => (isoDate ? formatSlashDate(isoDate) : '');

/**
 * The owner's view: the dashboard and the reports behind its figures, each for the whole
 * chain or one branch. An owner chooses; a manager always sees their own branch. Every answer
 * is read in one read-only snapshot, so a page and its totals agree.
 */
export function createReportsService({
  reads,
  today,
  timeZone,
  branches,
  pointValuePaise,
  tierCounts,
  openCsv,
}: Deps) {
  const snapshot = <T>(from: ReadSource, work: (tx: Tx) => Promise<T>) =>
    from.db.transaction(work, { isolationLevel: 'repeatable read', accessMode: 'read only' });
  /** `work` in one read-only snapshot, where `staff` may read (db/reads.ts). */
  const read = <T>(staff: SessionStaff, work: (tx: Tx) => Promise<T>) =>
    reads.run(staff, (from) => snapshot(from, work));

  /** A report from its rows' query, how each becomes an answer row and a CSV line, and its totals. */
  function report<DbRow extends Record<string, unknown>, Row, Totals>(
    name: ReportName,
    definition: {
      /** Every row in order; for a page, `first` is how many rows it reaches. */
      rows(first?: number): SQL;
      toRow(row: DbRow): Row;
      cells(row: Row): unknown[];
      totals(tx: Tx): Promise<{ total: number; totals: Totals }>;
    },
  ): Report<Row, Totals> {
    return {
      page: async (tx, limit, offset) =>
        (await pageRows<DbRow>(tx, definition.rows(offset + limit), limit, offset)).map(
          definition.toRow,
        ),
      totals: definition.totals,
      csv: (pool) =>
        openCsv<DbRow>(pool, {
          query: queryText(definition.rows()),
          columns: REPORT_CSV[name].columns,
          cells: (row) => definition.cells(definition.toRow(row)),
        }),
    };
  }

  /** The branch the staff member may see: a manager their own, an owner the one named, or all. */
  async function scopeOf(tx: Tx, staff: SessionStaff, code: string | undefined): Promise<Scope> {
    const ownId = branchOf(staff);
    if (ownId !== undefined) {
      const own = (await branches.findById(tx, ownId))!;
      return { branchId: own.id, branchCode: own.code };
    }
    if (code === undefined) return {};
    const branch = await branches.findByCode(tx, code);
    if (!branch) throw new InvalidInputError(REPORT_MESSAGES.unknownBranch(code));
    return { branchId: branch.id, branchCode: branch.code };
  }

  async function dashboard(tx: Tx, scope: Scope): Promise<DashboardData> {
    const day = today();
    const thisMonth = monthOf(day);
    const lastMonth = monthOf(day, -1);
    const months = Array.from({ length: LIMITS.dashboardMonths }, (_, k) =>
      monthOf(day, k + 1 - LIMITS.dashboardMonths),
    );
    const from = `${months[0]}-01`;
    const collections = await reportsRepo.collectionsByMonth(tx, scope, from, day);
    const points = await reportsRepo.pointsByMonth(tx, scope, from, day);
    const outstanding = Number((await reportsRepo.pointsOutstanding(tx, scope)).points);
    const paise = await pointValuePaise(tx);
    const schemes = await reportsRepo.schemeFigures(tx, scope, day);
    const goldHeld = await reportsRepo.goldHeld(tx, scope);
    // The overdue report's own totals: the figure and the report it opens always agree.
    const overdue = await reportsRepo.overdueTotals(
      tx,
      day,
      scope,
      await reportsRepo.planGraces(tx),
    );
    const tiers = await tierCounts(tx, day);

    const todays = emptyCollections();
    const byMonth = new Map(months.map((month) => [month, emptyCollections()]));
    for (const row of collections) {
      addTo(byMonth.get(row.month)!, row.mode, Number(row.amount), row.installments);
      if (row.today) addTo(todays, row.mode, Number(row.amount), row.installments);
    }
    const pointsIn = (month: string, field: 'issued' | 'redeemed' | 'expired') =>
      points.filter((row) => row.month === month).reduce((sum, row) => sum + Number(row[field]), 0);
    return {
      today: {
        collections: todays,
        pointsIssued: points
          .filter((row) => row.today)
          .reduce((sum, row) => sum + Number(row.issued), 0),
      },
      month: {
        collections: byMonth.get(thisMonth)!,
        collectionsLastMonth: byMonth.get(lastMonth)!,
        pointsIssued: pointsIn(thisMonth, 'issued'),
        pointsIssuedLastMonth: pointsIn(lastMonth, 'issued'),
      },
      points: { outstanding, value: rupees(outstanding * paise) },
      // Customers belong to the whole chain: the same counts for every branch.
      ...(tiers.length > 0 ? { tiers } : {}),
      schemes: {
        active: schemes.active,
        monthlyCommitment: Number(schemes.commitment),
        maturingIn30Days: schemes.maturing,
        overdueCount: overdue.installments,
        overdueAmount: Number(overdue.amount),
        ...(goldHeld.length === 0
          ? {}
          : {
              goldHeld: goldHeld.map((row) => ({
                plan: row.plan,
                name: row.name,
                mg: Number(row.mg),
              })),
            }),
      },
      series: {
        months,
        pointsIssued: months.map((month) => pointsIn(month, 'issued')),
        pointsRedeemed: months.map((month) => pointsIn(month, 'redeemed')),
        pointsExpired: months.map((month) => pointsIn(month, 'expired')),
        collections: months.map((month) => byMonth.get(month)!.amount),
      },
    };
  }

  function collections(filter: ReportFilter, scope: Scope) {
    const day = today();
    const to = filter.to ?? (filter.from && filter.from > day ? filter.from : day);
    const range = { from: filter.from ?? to, to, timeZone, by: filter.by };
    return report('collections', {
      rows: (first) => reportQueries.collectionsRows(range, scope, first),
      toRow: (row: CollectionDbRow): CollectionRow => ({
        date: row.date,
        time: row.time,
        branch: row.branch,
        staff: row.staff,
        kind: row.kind,
        receipt: row.receipt,
        schemeid: row.schemeid,
        custname: cleanName(row.custname),
        mobileno: row.mobileno,
        mode: row.mode as CollectionRow['mode'],
        amount: rupees(Number(row.amount_paise)),
        points: row.points === null ? null : Number(row.points),
        enteredOn: row.entered_on,
        ...(row.entry === null ? {} : { entry: Number(row.entry) }),
      }),
      async totals(tx) {
        const byMode = await reportsRepo.collectionsByMode(tx, range, scope);
        const redemptions = await reportsRepo.redemptionTotals(tx, range, scope);
        const { backdated } = await reportsRepo.backdatedInstallments(tx, range, scope);
        const modes = noModes();
        let installments = 0;
        for (const row of byMode) {
          modes[row.mode as InstallmentMode] = Number(row.amount);
          installments += row.installments;
        }
        return {
          total: installments + redemptions.made + redemptions.cancelled,
          totals: {
            installments,
            collected: Object.values(modes).reduce((sum, amount) => sum + amount, 0),
            byMode: modes,
            redemptions: redemptions.made,
            cancelledRedemptions: redemptions.cancelled,
            pointsRedeemed: Number(redemptions.points),
            redeemedValue: rupees(Number(redemptions.value_paise)),
            backdated,
          },
        };
      },
      cells: (row) => [
        dateCell(row.date),
        row.time,
        row.branch,
        row.staff,
        COLLECTION_KIND_LABELS[row.kind],
        row.receipt,
        row.schemeid,
        cleanName(row.custname),
        row.mobileno,
        COLLECTION_MODE_LABELS[row.mode],
        row.amount,
        row.points,
        dateCell(row.enteredOn),
        row.date < row.enteredOn ? 'Yes' : '',
      ],
    });
  }

  function overdue(filter: ReportFilter, scope: Scope, plans: PlanGrace[]) {
    const day = today();
    const asOf = filter.asOf ?? day;
    if (asOf < day) throw new InvalidInputError(REPORT_MESSAGES.asOfBeforeToday);
    return report('overdue', {
      rows: () => reportQueries.overdueRows(asOf, scope, plans),
      toRow: (row: OverdueDbRow): OverdueRow => ({
        schemeid: row.schemeid,
        mobileno: row.mobileno,
        custname: cleanName(row.custname),
        monthsDue: row.months_due,
        amountDue: Number(row.amount_due),
        daysOverdue: row.days_overdue,
        lastPaid: row.last_paid,
      }),
      async totals(tx) {
        const totals = await reportsRepo.overdueTotals(tx, asOf, scope, plans);
        return {
          total: totals.schemes,
          totals: {
            schemes: totals.schemes,
            installments: totals.installments,
            amount: Number(totals.amount),
          },
        };
      },
      cells: (row) => [
        row.schemeid,
        row.mobileno,
        cleanName(row.custname),
        row.monthsDue,
        row.amountDue,
        row.daysOverdue,
        dateCell(row.lastPaid),
      ],
    });
  }

  function maturing(filter: ReportFilter, scope: Scope) {
    const from = filter.from ?? today();
    const to = filter.to ?? addDays(from, LIMITS.maturingWithinDays);
    return report('maturing', {
      rows: () => reportQueries.maturingRows(from, to, scope),
      toRow: (row: MaturingDbRow): MaturingRow => ({
        schemeid: row.schemeid,
        custname: cleanName(row.custname),
        mobileno: row.mobileno,
        branch: row.branch,
        startdt: row.startdt,
        matdt: row.matdt,
        installmentsPaid: row.paid,
        installments: row.installments,
        amountPaid: Number(row.amount_paid),
        ...(row.mg === null ? {} : { mg: row.mg }),
      }),
      async totals(tx) {
        const totals = await reportsRepo.maturingTotals(tx, from, to, scope);
        return {
          total: totals.schemes,
          totals: { schemes: totals.schemes, amountPaid: Number(totals.amount_paid) },
        };
      },
      cells: (row) => [
        row.schemeid,
        cleanName(row.custname),
        row.mobileno,
        row.branch,
        dateCell(row.startdt),
        dateCell(row.matdt),
        row.installmentsPaid,
        row.installments,
        row.amountPaid,
      ],
    });
  }

  function pointsLiability(scope: Scope, paise: number) {
    const day = today();
    const lastDay = addDays(day, LIMITS.pointsExpiringWithinDays);
    return report('points-liability', {
      rows: () => reportQueries.liabilityRows(day, lastDay, scope),
      toRow: (row: LiabilityDbRow): PointsLiabilityRow => ({
        custid: row.custid,
        custname: cleanName(row.custname),
        mobileno: row.mobileno,
        points: Number(row.points),
        value: rupees(Number(row.points) * paise),
        expiringIn30Days: Number(row.expiring),
      }),
      async totals(tx) {
        const { customers } = await reportsRepo.liabilityCustomers(tx, scope);
        // The dashboard's points outstanding, read the same way: one figure on both screens.
        const points = Number((await reportsRepo.pointsOutstanding(tx, scope)).points);
        const expiring = await reportsRepo.liabilityExpiring(tx, day, lastDay, scope);
        return {
          total: customers,
          totals: {
            customers,
            points,
            value: rupees(points * paise),
            expiringIn30Days: Number(expiring.points),
          },
        };
      },
      cells: (row) => [
        row.custid,
        cleanName(row.custname),
        row.mobileno,
        row.points,
        row.value,
        row.expiringIn30Days,
      ],
    });
  }

  function unrecovered(filter: { from?: string; to?: string }, scope: Scope) {
    const range = { from: filter.from, to: filter.to };
    return report('unrecovered', {
      rows: () => reportQueries.unrecoveredRows(range, scope),
      toRow: (row: UnrecoveredDbRow) => ({ ...row, unrecovered: Number(row.unrecovered) }),
      async totals(tx) {
        const totals = await reportsRepo.unrecoveredTotals(tx, range, scope);
        return {
          total: totals.returns,
          totals: { returns: totals.returns, unrecovered: Number(totals.unrecovered) },
        };
      },
      cells: (row) => [
        dateCell(row.returnDate),
        row.branch,
        row.returnNo,
        row.invoiceNo,
        row.mobile,
        row.unrecovered,
      ],
    });
  }

  /** Each report by name, for the filter and scope asked. */
  const reports = {
    collections: async (_tx: Tx, filter: ReportFilter, scope: Scope) => collections(filter, scope),
    overdue: async (tx: Tx, filter: ReportFilter, scope: Scope) =>
      overdue(filter, scope, await reportsRepo.planGraces(tx)),
    maturing: async (_tx: Tx, filter: ReportFilter, scope: Scope) => maturing(filter, scope),
    'points-liability': async (tx: Tx, _filter: ReportFilter, scope: Scope) =>
      pointsLiability(scope, await pointValuePaise(tx)),
    unrecovered: async (_tx: Tx, filter: ReportFilter, scope: Scope) => unrecovered(filter, scope),
  } satisfies Record<ReportName, (tx: Tx, filter: ReportFilter, scope: Scope) => Promise<unknown>>;

  /** A report's page: its rows from `page`, how many rows it has, its totals over all of them. */
  const pageOf =
    <Row, Totals>(
      build: (tx: Tx, filter: ReportFilter, scope: Scope) => Promise<Report<Row, Totals>>,
    ) =>
    (staff: SessionStaff, filter: ReportFilter) =>
      read(staff, async (tx) => {
        const chosen = await build(tx, filter, await scopeOf(tx, staff, filter.branch));
        const data = await chosen.page(tx, filter.pageSize, (filter.page - 1) * filter.pageSize);
        return { data, ...(await chosen.totals(tx)) };
      });

  return {
    dashboard: (staff: SessionStaff, branch: string | undefined) =>
      read(staff, async (tx) => dashboard(tx, await scopeOf(tx, staff, branch))),

    /** The caller's own installments of today, whatever their role or branch. */
    myDay: (staff: SessionStaff): Promise<MyDayData> =>
      read(staff, async (tx) => {
        const day = today();
        const installments = (await reportsRepo.myInstallments(tx, day, staff.id, timeZone)).map(
          (row) => ({ ...row, custname: cleanName(row.custname), amount: Number(row.amount) }),
        );
        return {
          date: day,
          installments,
          totals: {
            installments: installments.length,
            amount: installments.reduce((sum, row) => sum + row.amount, 0),
          },
        };
      }),

    pages: {
      collections: pageOf(reports.collections),
      overdue: pageOf(reports.overdue),
      maturing: pageOf(reports.maturing),
      'points-liability': pageOf(reports['points-liability']),
      unrecovered: pageOf(reports.unrecovered),
    },

    /** The CSV's file name, with the dates it covers. */
    csvFileName: (name: ReportName, filter: ReportFilter) =>
      reportCsvFileName(name, filter, today()),

    /**
     * The whole report as CSV, streamed from a cursor. Its filter is checked (branch, dates)
     * before the answer starts, so a refusal is a 4xx envelope rather than a broken file.
     */
    async csv(staff: SessionStaff, name: ReportName, filter: ReportFilter) {
      return reads.run(staff, async (from) => {
        const chosen: Report<unknown, unknown> = await snapshot(from, async (tx) =>
          reports[name](tx, filter, await scopeOf(tx, staff, filter.branch)),
        );
        // After the snapshot ends, so a file never holds two connections; on the same database.
        return chosen.csv(from.pool);
      });
    },
  };
}
