import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import {
  customerForm,
  IMPORT_ERRORS_LISTED,
  IMPORT_MESSAGES,
  IMPORTED_MODE,
  IMPORT_REQUIRED,
  LIMITS,
  installmentDueOn,
  OPENING_BALANCE_NARRATION,
  SCHEME_STATUS,
  standardMaturity,
  type ImportKind,
  type ImportProgress,
  type ImportResult,
  type ImportRowError,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { recordAudits, type AuditEntry } from '../../lib/audit.js';
import { InvalidInputError } from '../../lib/errors.js';
import { postOpenings } from '../points/index.js';
import { customersImport } from '../customers/index.js';
import { schemesImport } from '../schemes/index.js';
import { judgeFile, openSource, type Cell, type SourceRow } from './import.read.js';
import { asWritten, CellError, date, mapColumns, mobile, plain, whole } from './import.values.js';

/**
 * Rows written per transaction. A batch stays alive while it is written, long enough for the
 * garbage collector to move it to the old space; the smaller it is, the less the old space
 * grows between full collections (1,000 rows: a server's peak 292 MB over 100,000 customers;
 * 250: 234 MB, in the same time).
 */
const BATCH = 250;
/** The plans a scheme may be imported on. */
const PLANS = ['STD'];

/** Who imports: a staff member (the screen) or nobody (the command line), in a branch. */
export interface ImportActor {
  id: number | null;
  branchId: number;
}

export interface ImportOptions {
  dryRun: boolean;
  /** Called once the file is read through, then after each batch. */
  onProgress?: (progress: ImportProgress) => void;
  /** Every problem in `errors` (the downloadable list, the command line), not only the first. */
  listAll?: boolean;
}

/**
 * The problems found, by row: all of them for the downloadable list, or only the first
 * IMPORT_ERRORS_LISTED for an answer (and counted), so that a file of 200,000 bad rows is not
 * held whole. They come nearly in row order (a batch's own come when it is written): the
 * first are kept by sorting now and then and dropping the rest.
 */
function problemList(keepAll: boolean) {
  let kept: ImportRowError[] = [];
  let count = 0;
  const byRow = (a: ImportRowError, b: ImportRowError) => a.row - b.row;
  return {
    add(errors: ImportRowError[]) {
      count += errors.length;
      kept.push(...errors);
      if (!keepAll && kept.length > 2 * IMPORT_ERRORS_LISTED)
        kept = kept.sort(byRow).slice(0, IMPORT_ERRORS_LISTED);
    },
    get count() {
      return count;
    },
    /** The problems kept, by row (a row's own in the order they were found). */
    sorted() {
      kept.sort(byRow);
      return keepAll ? kept : kept.slice(0, IMPORT_ERRORS_LISTED);
    },
  };
}

interface Deps {
  db: Db;
  today: () => string;
  terms: { installments: number };
  /** The keyed hash an erased customer's number is kept as. */
  erasedMobileHash: (mobile: string) => string;
}

export type ImportService = ReturnType<typeof createImportService>;

/** Profile fields an import fills, as the customers table names them. */
const PROFILE = ['custname', 'email', 'address', 'city', 'pincode', 'state', 'dob', 'doa'] as const;
type Profile = Record<(typeof PROFILE)[number], string>;

interface CustomerRow {
  line: number;
  /** The row as read: what a problem found only when it is written repeats of it. */
  cells: Cell[];
  mobileno: string;
  profile: Profile;
  points: number;
  expiresOn: string | null;
}

interface SchemeRow {
  line: number;
  cells: Cell[];
  mobileno: string;
  startdt: string;
  amount: number;
  paid: number;
}

/** A batch's outcome: the rows it changes and the rows only the database could refuse. */
interface Counts<Row> {
  created: number;
  updated: number;
  refused: { row: Row; message: string }[];
}

export function createImportService({ db, today, terms, erasedMobileHash }: Deps) {
  /**
   * Reads a file of `kind` and imports its valid rows (a dry run: only checks them). Every bad
   * row is counted and the first listed; the good ones are written a batch per transaction,
   * each with its audit rows. A row already imported changes nothing.
   */
  async function run(
    kind: ImportKind,
    actor: ImportActor,
    file: { path: string; filename: string },
    options: ImportOptions,
  ): Promise<ImportResult> {
    const problems = problemList(options.listAll ?? false);
    const result = await readAndWrite(kind, actor, file, options, problems);
    return { ...result, errors: problems.sorted(), errorCount: problems.count };
  }

  async function readAndWrite(
    kind: ImportKind,
    actor: ImportActor,
    file: { path: string; filename: string },
    options: ImportOptions,
    problems: ReturnType<typeof problemList>,
  ): Promise<Omit<ImportResult, 'errors' | 'errorCount'>> {
    const fileKind = await judgeFile(file.path, file.filename);
    // Read through once before anything is written: a file cut off or damaged midway, or of
    // too many rows, is then refused whole, never after its first batches were imported. Its
    // rows are counted for the progress.
    let total = 0;
    for await (const _row of (await openSource(file.path, fileKind)).rows) total += 1;
    const source = await openSource(file.path, fileKind);
    const columns = mapColumns(kind, source.header);
    const missing = IMPORT_REQUIRED[kind].filter((field) => columns[field] === undefined);
    if (missing.length > 0) {
      // A first row holding a mobile number or an e-mail is a customer's, not a header: the
      // answer (kept for a retry) never repeats it.
      const looksLikeData = source.header.some((cell) => /\d{4}|@/.test(cell));
      throw new InvalidInputError(
        looksLikeData
          ? IMPORT_MESSAGES.noHeaderRow(missing.map(title))
          : IMPORT_MESSAGES.missingColumns(missing.map(title), source.header),
      );
    }
    const nameOf = (field: string) => source.header[columns[field]!] ?? field;
    // What a problem repeats of its row, for the owner to find it: the customer's name (a
    // schemes file has none) and the bad cell, or the mobile number for the row as a whole.
    const problem = (
      row: { line: number; cells: Cell[] },
      column: string,
      value: string,
      message: string,
    ): ImportRowError => ({
      row: row.line,
      column,
      value,
      name: columns.name === undefined ? '' : asWritten(row.cells[columns.name]),
      message,
    });
    const wholeRow = (row: { line: number; cells: Cell[] }, message: string) =>
      problem(row, '', asWritten(row.cells[columns.mobile!]), message);
    const today_ = today();
    const result: Omit<ImportResult, 'errors' | 'errorCount'> = {
      rows: 0,
      valid: 0,
      created: 0,
      updated: 0,
      sheet: null,
      notices: [],
      dryRun: options.dryRun,
    };
    const seen = new Map<string, number>();
    const check = kind === 'customers' ? checkCustomer : checkScheme;
    const write = kind === 'customers' ? writeCustomers : writeSchemes;

    let batch: (CustomerRow | SchemeRow)[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const counts = await write(batch as never, actor, options.dryRun, today_);
      result.created += counts.created;
      result.updated += counts.updated;
      problems.add(counts.refused.map(({ row, message }) => wholeRow(row, message)));
      result.valid += batch.length - counts.refused.length;
      batch = [];
      options.onProgress?.({ rows: result.rows, total });
    };

    options.onProgress?.({ rows: 0, total });
    for await (const row of source.rows) {
      result.rows += 1;
      // A file of bad rows writes no batch: its checking still lets other requests in.
      if (result.rows % BATCH === 0) await nextTurn();
      const errors: ImportRowError[] = [];
      const read = <T>(field: string, parse: (cell: Cell | undefined) => T): T | undefined => {
        if (columns[field] === undefined) return undefined;
        try {
          return parse(row.cells[columns[field]]);
        } catch (error) {
          if (!(error instanceof CellError)) throw error;
          const cell = row.cells[columns[field]];
          errors.push(problem(row, nameOf(field), asWritten(cell), error.message));
          return undefined;
        }
      };
      const refuse = (message: string) => errors.push(wholeRow(row, message));
      const parsed = check(row, read, today_, seen, refuse);
      problems.add(errors);
      if (errors.length === 0 && parsed) batch.push(parsed);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    if (result.rows === 0) throw new InvalidInputError(IMPORT_MESSAGES.noRows);
    result.sheet = source.sheet;
    result.notices = source.notices;
    return result;
  }

  type Read = <T>(field: string, parse: (cell: Cell | undefined) => T) => T | undefined;
  /** Records a problem with the row as a whole. */
  type Refuse = (message: string) => void;

  function checkCustomer(
    row: SourceRow,
    read: Read,
    today_: string,
    seen: Map<string, number>,
    refuse: Refuse,
  ): CustomerRow | undefined {
    const mobileno = read('mobile', mobile);
    const profile = {} as Profile;
    const fields = {
      custname: 'name',
      email: 'email',
      address: 'address',
      city: 'city',
      pincode: 'pincode',
      state: 'state',
    } as const;
    for (const [column, field] of Object.entries(fields)) {
      const value = read(field, (cell) => {
        const parsed = customerForm.shape[column as keyof typeof fields].safeParse(plain(cell));
        if (!parsed.success) throw new CellError(parsed.error.issues[0]!.message);
        return parsed.data;
      });
      profile[column as keyof typeof fields] = value ?? '';
    }
    for (const field of ['dob', 'doa'] as const) {
      profile[field] =
        read(field, (cell) => {
          const value = date(cell);
          if (value > today_) throw new CellError(IMPORT_MESSAGES.dateFuture);
          return value;
        }) ?? '';
    }
    const points =
      read('points', (cell) => {
        const value = whole(cell, IMPORT_MESSAGES.points(LIMITS.pointsMax)) ?? 0;
        if (value > LIMITS.pointsMax) throw new CellError(IMPORT_MESSAGES.points(LIMITS.pointsMax));
        return value;
      }) ?? 0;
    const expiresOn =
      read('expires', (cell) => {
        const value = date(cell);
        if (value !== '' && value <= today_) throw new CellError(IMPORT_MESSAGES.expired);
        return value;
      }) || null;
    if (mobileno === undefined) return undefined;
    const first = seen.get(mobileno);
    if (first !== undefined) {
      refuse(IMPORT_MESSAGES.duplicate(first));
      return undefined;
    }
    seen.set(mobileno, row.line);
    return { line: row.line, cells: row.cells, mobileno, profile, points, expiresOn };
  }

  function checkScheme(
    row: SourceRow,
    read: Read,
    today_: string,
    seen: Map<string, number>,
    refuse: Refuse,
  ): SchemeRow | undefined {
    const mobileno = read('mobile', mobile);
    read('plan', (cell) => {
      const plan = plain(cell).toUpperCase();
      if (plan !== '' && !PLANS.includes(plan))
        throw new CellError(IMPORT_MESSAGES.unknownPlan(PLANS));
    });
    const startdt = read('start', (cell) => {
      const value = date(cell);
      if (value === '') throw new CellError(IMPORT_MESSAGES.date);
      if (value > today_) throw new CellError(IMPORT_MESSAGES.dateFuture);
      return value;
    });
    const amount = read('amount', (cell) => {
      const value = whole(cell, IMPORT_MESSAGES.amount);
      if (value === null || value < 1 || value > 9_999_999)
        throw new CellError(IMPORT_MESSAGES.amount);
      return value;
    });
    const paid =
      read('paid', (cell) => {
        const value = whole(cell, IMPORT_MESSAGES.paid(terms.installments)) ?? 0;
        if (value > terms.installments)
          throw new CellError(IMPORT_MESSAGES.paid(terms.installments));
        return value;
      }) ?? 0;
    if (mobileno === undefined || startdt === undefined || amount === undefined) return undefined;
    const key = `${mobileno} ${startdt} ${amount}`;
    const first = seen.get(key);
    if (first !== undefined) {
      refuse(IMPORT_MESSAGES.duplicateScheme(first));
      return undefined;
    }
    seen.set(key, row.line);
    return { line: row.line, cells: row.cells, mobileno, startdt, amount, paid };
  }

  /** One transaction per batch; a dry run reads what the batch would change, and writes nothing. */
  function inBatch<Row>(dryRun: boolean, work: (tx: Tx) => Promise<Counts<Row>>) {
    if (dryRun) return work(db as unknown as Tx);
    return db.transaction(async (tx) => {
      // One batch at a time across imports: two would race to create the same customers. Each
      // batch reads its rows afresh under the lock.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('kanak.import'))`);
      return work(tx);
    });
  }

  async function writeCustomers(
    rows: CustomerRow[],
    actor: ImportActor,
    dryRun: boolean,
    today_: string,
  ): Promise<Counts<CustomerRow>> {
    return inBatch(dryRun, async (tx) => {
      const list = `{${rows.map((row) => row.mobileno).join(',')}}`;
      // NO KEY: a sale meanwhile locks the points account, then key-shares the customer (the
      // ledger's order); a stronger lock here, before the accounts, would deadlock with it.
      const found = await tx.execute<
        Profile & { id: number; mobileno: string; opened: boolean }
      >(sql`
        SELECT c.id, c.mobileno, c.custname, c.email, c.address, c.city, c.pincode, c.state,
               coalesce(c.dob::text, '') AS dob, coalesce(c.doa::text, '') AS doa,
               EXISTS (SELECT 1 FROM points_entries e WHERE e.customer_id = c.id AND e.ts = 'O') AS opened
          FROM customers c WHERE c.mobileno = ANY(${list}::text[])
         ORDER BY c.id ${dryRun ? sql`` : sql`FOR NO KEY UPDATE`}`);
      const existing = new Map(found.rows.map((row) => [row.mobileno, row]));
      // A customer erased at their request stays erased: their old software's row is refused.
      const unknown = rows.filter((row) => !existing.has(row.mobileno));
      const erased = await customersImport.erasedAmong(
        tx,
        unknown.map((row) => erasedMobileHash(row.mobileno)),
      );
      const refused: Counts<CustomerRow>['refused'] = [];
      const fresh = unknown.filter((row) => {
        if (!erased.has(erasedMobileHash(row.mobileno))) return true;
        refused.push({ row, message: IMPORT_MESSAGES.erasedCustomer });
        return false;
      });
      const audits: AuditEntry[] = [];
      let updated = 0;
      const openings: {
        customerId: number;
        points: number;
        expiresOn: string | null;
        mobileno: string;
      }[] = [];

      for (const row of rows) {
        const before = existing.get(row.mobileno);
        if (!before) continue;
        // A field the file leaves empty keeps what Kanak holds.
        const changed = PROFILE.filter(
          (field) => row.profile[field] !== '' && row.profile[field] !== before[field],
        );
        const opens = row.points > 0 && !before.opened;
        if (changed.length > 0 || opens) updated += 1;
        if (opens)
          openings.push({
            customerId: before.id,
            points: row.points,
            expiresOn: row.expiresOn,
            mobileno: row.mobileno,
          });
        if (dryRun || changed.length === 0) continue;
        const after = Object.fromEntries(changed.map((field) => [field, row.profile[field]]));
        await customersImport.updateProfile(tx, before.id, after, actor.id);
        audits.push({
          userId: actor.id,
          branchId: actor.branchId,
          action: 'customer.update',
          entity: 'customer',
          entityId: before.id,
          before: Object.fromEntries(changed.map((field) => [field, before[field]])),
          after: { ...after, source: 'import' },
          mobile: row.mobileno,
        });
      }
      if (dryRun) return { created: fresh.length, updated, refused };

      const inserted = await customersImport.insertNew(
        tx,
        fresh.map((row) => ({
          mobileno: row.mobileno,
          ...row.profile,
          dob: row.profile.dob || null,
          doa: row.profile.doa || null,
        })),
        actor.id,
      );
      const byMobile = new Map(fresh.map((row) => [row.mobileno, row]));
      for (const customer of inserted) {
        const row = byMobile.get(customer.mobileno)!;
        audits.push({
          userId: actor.id,
          branchId: actor.branchId,
          action: 'customer.create',
          entity: 'customer',
          entityId: customer.id,
          after: { ...row.profile, source: 'import' },
          mobile: row.mobileno,
        });
        if (row.points > 0)
          openings.push({
            customerId: customer.id,
            points: row.points,
            expiresOn: row.expiresOn,
            mobileno: row.mobileno,
          });
      }
      const credited = new Set(
        await postOpenings(tx, openings, {
          invdate: today_,
          narration: OPENING_BALANCE_NARRATION,
          branchId: actor.branchId,
          createdBy: actor.id,
        }),
      );
      for (const opening of openings) {
        if (!credited.has(opening.customerId)) continue;
        audits.push({
          userId: actor.id,
          branchId: actor.branchId,
          action: 'points.opening',
          entity: 'customer',
          entityId: opening.customerId,
          after: { points: opening.points, expiresOn: opening.expiresOn },
          mobile: opening.mobileno,
        });
      }
      await recordAudits(tx, audits);
      return { created: inserted.length, updated, refused };
    });
  }

  async function writeSchemes(
    rows: SchemeRow[],
    actor: ImportActor,
    dryRun: boolean,
    today_: string,
  ): Promise<Counts<SchemeRow>> {
    return inBatch(dryRun, async (tx) => {
      const list = `{${[...new Set(rows.map((row) => row.mobileno))].join(',')}}`;
      const found = await tx.execute<{ id: number; mobileno: string }>(sql`
        SELECT id, mobileno FROM customers WHERE mobileno = ANY(${list}::text[])
         ORDER BY id ${dryRun ? sql`` : sql`FOR NO KEY UPDATE`}`);
      const ids = new Map(found.rows.map((row) => [row.mobileno, row.id]));
      const idList = `{${found.rows.map((row) => row.id).join(',')}}`;
      const held = await tx.execute<{ customer_id: number; startdt: string; amount: number }>(sql`
        SELECT customer_id, startdt::text AS startdt, amount FROM schemes
         WHERE customer_id = ANY(${idList}::int[]) AND status <> ${SCHEME_STATUS.cancelled}`);
      const known = new Set(
        held.rows.map((row) => `${row.customer_id} ${row.startdt} ${row.amount}`),
      );
      const refused: Counts<SchemeRow>['refused'] = [];
      const fresh: (SchemeRow & { customerId: number })[] = [];
      for (const row of rows) {
        const customerId = ids.get(row.mobileno);
        if (customerId === undefined) {
          refused.push({ row, message: IMPORT_MESSAGES.unknownCustomer });
          continue;
        }
        if (!known.has(`${customerId} ${row.startdt} ${row.amount}`))
          fresh.push({ ...row, customerId });
      }
      if (dryRun || fresh.length === 0) return { created: fresh.length, updated: 0, refused };

      const inserted = await schemesImport.insertSchemes(
        tx,
        fresh.map((row) => ({
          customerId: row.customerId,
          startdt: row.startdt,
          matdt: standardMaturity(row.startdt),
          amount: row.amount,
          installments: terms.installments,
          // Running in the other software: active here from the first day.
          status: SCHEME_STATUS.active,
          branchId: actor.branchId,
          createdBy: actor.id,
        })),
      );
      const installments = fresh.flatMap((row, index) =>
        Array.from({ length: row.paid }, (_, k) => {
          const due = installmentDueOn(row.startdt, k);
          return {
            schemeId: inserted[index]!.id,
            branchId: actor.branchId,
            // Paid in the other software: its receipt stays there, Kanak's run has no gap.
            receiptNo: null,
            receipt: '',
            paidOn: due < today_ ? due : today_,
            period: due.slice(0, 7),
            amount: row.amount,
            mode: IMPORTED_MODE,
            narration: '',
            createdBy: actor.id,
          };
        }),
      );
      await schemesImport.insertInstallments(tx, installments);
      await recordAudits(
        tx,
        fresh.map((row, index) => ({
          userId: actor.id,
          branchId: actor.branchId,
          action: 'scheme.import',
          entity: 'scheme',
          entityId: inserted[index]!.id,
          after: {
            startdt: row.startdt,
            amount: row.amount,
            paid: row.paid,
            status: SCHEME_STATUS.active,
          },
          mobile: row.mobileno,
        })),
      );
      return { created: inserted.length, updated: 0, refused };
    });
  }

  return { run };
}

const title = (field: string) => field[0]!.toUpperCase() + field.slice(1);
