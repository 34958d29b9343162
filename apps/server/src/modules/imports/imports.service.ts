import {
  IMPORT_FORECAST_FIELDS,
  IMPORT_LIST_LIMIT,
  IMPORT_OVERRIDE_FIELDS,
  ZDerivedValuesSchema,
  importQuarterWeeks,
  IMPORT_REASON_REQUIRED,
  isImportFileProblem,
  lacksImportReason,
  nothingToImportMessage,
  withReasonPolicy,
  spreadOverWeeks,
  type ClientId,
  type ImportIssue,
  type ImportJob,
  type ImportOutcome,
  type ImportPlanRow,
  type ImportPreview,
  type ImportRow,
  type ImportRowOutcome,
  type ImportValidation,
  type ReasonCode,
} from '@ps/domain';
import type { Kysely, Transaction } from 'kysely';
import type { BulkLoader } from '../../db/bulk';
import { holdJob, JOB_LOCK_CLASS, releaseJob } from '../../db/job-locks';
import { planColumns, type DemandRecordRow } from '../../db/demand-record-row';
import type { Database } from '../../db/schema';
import { narrowToContext, type AccessScope } from '../../lib/access';
import { systemClock, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import type { DatabaseKind } from '../../db/database';
import {
  allowLongImport,
  failImport,
  failImportsExcept,
  failOrphanedImports,
  findImport,
  findFinalPlans,
  findProducts,
  finishImport,
  insertAudit,
  insertProductAudit,
  insertProducts,
  insertNewProductDetails,
  insertNewSkuWeeks,
  insertRunningImport,
  forgetUndo,
  lockRecords,
  noteUndoProducts,
  noteUndoRecords,
  PRODUCT_CREATED,
  recordImportProgress,
  sliceLoader,
  updateProductPlaces,
  undoImport,
  updateRecords,
  upsertProductDetails,
  type AuditWrite,
  type ImportedProduct,
  type NewWeeks,
  type ProductAuditWrite,
  type ProductDetails,
  type ImportRow as ImportTableRow,
  type ProductPlaceUpdate,
  type ProductUndo,
  type RecordWrite,
} from './imports.repository';
import { importSlices, SLICE_RECORDS } from './import-slices';
import { NewSkuRecords } from './new-sku-records';
import type { ParseSteps, SpreadsheetParser } from './spreadsheet-parser';
import type { Notifier } from '../notifications';
import { readPlanningPolicy } from '../demand-records';

/** Product attributes of a new SKU that a sheet does not carry (spec §9's fallback category). */
const UNASSIGNED = 'Unassigned';
const SOURCE = 'import';
/** A new SKU's quarterly forecast is split into weekly forecasts in hundredths of a unit. */
const FORECAST_DECIMALS = 2;

type Uploaded = { fileName: string; bytes: Buffer };

const failedMessage = (id: string | undefined, reason: string): string =>
  `Failed to import ${id || 'unknown item'}: ${reason}`;

/** Spec §8: success is 'Successfully imported N items'; with failures the bulk summary. */
export function outcomeMessage(imported: number, failed: number): string {
  return failed > 0
    ? `${failed} items failed to import. ${imported} items imported successfully.`
    : `Successfully imported ${imported} items`;
}

const yieldToOtherRequests = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Progress is written to the import's row at most this often (PostgreSQL; the pollers' source). */
const PROGRESS_INTERVAL_MS = 300;

type Steps = Record<string, number>;
/** Adds the milliseconds `work` took to `steps[name]`. */
async function timed<T>(steps: Steps, name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    steps[name] = Math.round((steps[name] ?? 0) + performance.now() - started);
  }
}

/** An import this process is applying: what a poll answers without reading the database. */
type OwnImport = {
  row: ImportTableRow;
  processed: number;
  steps: Steps;
};

function toJob(row: ImportTableRow, own?: OwnImport): ImportJob {
  const processed = own?.processed ?? row.processed_rows;
  const total = row.row_count;
  const done = row.status === 'succeeded';
  return {
    id: Number(row.id),
    fileName: row.file_name,
    status: row.status,
    totalRows: total,
    processedRows: done ? total : Math.min(processed, total),
    progressPercent: done ? 100 : total === 0 ? 0 : Math.min(99, Math.floor((100 * processed) / total)),
    error: row.error,
    outcome: done ? (row.outcome as ImportOutcome) : null,
    steps: own?.steps ?? (row.steps as Steps | null) ?? {},
    startedAt: new Date(row.imported_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
}

/**
 * The import's outcome as it was answered before imports became jobs, and every row's outcome
 * (the outcome lists only the rows that changed or warn).
 */
type Applied = { outcome: ImportOutcome; rowOutcomes: ImportRowOutcome[] };

/**
 * A customer's answer for every SKU that is not one of its products, unknown or another client's,
 * word for word the same: products are created by an admin, and a customer never learns that
 * another client's SKU exists.
 */
const NOT_YOUR_PRODUCT = 'the SKU is not one of your products; new products are created by an admin';

/** Whose products a caller's import reads: an admin's, every client's; a customer's, its own. */
const productsVisibleTo = (scope: AccessScope): readonly ClientId[] | 'any' =>
  scope.isAdmin ? 'any' : scope.clientIds;

/**
 * Why the caller may not import a row of this SKU (null when it may: an existing product of its
 * clients is updated, an admin's unknown SKU is created). An admin working in one client's context
 * sees every client, so may be told who owns a SKU.
 */
function refusalOf(scope: AccessScope, product: ImportedProduct | undefined): string | null {
  if (!product) return scope.isAdmin ? null : NOT_YOUR_PRODUCT;
  if (scope.clientIds.includes(product.client_id as ClientId)) return null;
  return `the SKU belongs to client ${product.client_id}, not to the client in context`;
}

/**
 * Spreadsheet import (docs/spreadsheet-import.md). One row is one SKU: an existing SKU's quarterly
 * overrides set that quarter's Final plan, spread over its weeks by the statistical forecast; a new
 * SKU (an admin's import only) is created with its quarterly forecasts as the weekly baseline; region, site, planner and
 * notes update the product. Every valid row applies in one transaction, each change audited.
 */
export class ImportService {
  /** Imports this process is applying (the embedded database cannot be read while one writes). */
  private readonly own = new Map<number, OwnImport>();
  /** Their background work, so a closing server lets them end. */
  private readonly work = new Set<Promise<void>>();
  /** The embedded database's imports write in turn: the last one's end (PostgreSQL uses a lock). */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly parser: SpreadsheetParser,
    private readonly options: {
      databaseKind: DatabaseKind;
      log: { error: (obj: unknown, msg: string) => void; info: (msg: string) => void };
      notifier?: Notifier | undefined;
      /** Today decides the import's four quarters. */
      clock?: Clock | undefined;
      /**
       * Most rows planned, written and committed together (IMPORT_SLICE_ROWS; a slice also ends
       * before its weekly records pass SLICE_RECORDS). A slice is a few statements (its new
       * products, their details and audit rows, then its records: new, updated and audited, with
       * their undo notes) in one transaction: another user's save of a record the import writes
       * waits for one slice's record writes at most, and the import's progress moves on after each.
       */
      sliceRows: number;
    },
  ) {}

  private today(): Date {
    return (this.options.clock ?? systemClock).now();
  }

  /** The file's rows by the import's rules and the admin's reason-code policy. */
  private async parse(file: Uploaded, today: Date, steps?: Steps): Promise<ImportValidation> {
    const { result, steps: parseSteps } = await this.parser.parse(file.fileName, file.bytes, today);
    if (steps) Object.assign(steps, parseSteps satisfies ParseSteps);
    if (isImportFileProblem(result)) throw AppError.validation(result.problem, 'file');
    const policy = await readPlanningPolicy(this.db);
    return withReasonPolicy(result, policy.requireOverrideReason);
  }

  /**
   * An import left 'running' by a stopped server is marked failed, and the slices it committed are
   * undone. On a shared PostgreSQL only imports whose lock no live process holds are touched.
   */
  async recoverInterruptedImports(): Promise<void> {
    const count =
      this.options.databaseKind === 'postgres'
        ? await failOrphanedImports(this.db)
        : await failImportsExcept(this.db, [...this.own.keys()]);
    if (count > 0) this.options.log.info(`Marked ${count} interrupted import(s) as failed`);
  }

  /** Waits for the imports under way (a closing server); each ends committed or rolled back. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.work]);
  }

  /** One of the caller's imports; another user's is not found. */
  async job(scope: AccessScope, id: number): Promise<ImportJob> {
    const own = this.own.get(id);
    if (own) {
      if (own.row.imported_by_id !== scope.userId) throw AppError.notFound(`Import ${id} was not found`);
      return toJob(own.row, own);
    }
    let row = await findImport(this.db, id);
    if (!row || row.imported_by_id !== scope.userId) throw AppError.notFound(`Import ${id} was not found`);
    if (row.status === 'running') {
      // Not this process's: its process may have died since, and then this poll says so.
      await this.recoverInterruptedImports();
      row = (await findImport(this.db, id)) ?? row;
    }
    return toJob(row);
  }

  async preview(
    scope: AccessScope,
    clientContext: string | undefined,
    file: Uploaded,
  ): Promise<ImportPreview> {
    const context = narrowToContext(scope, clientContext);
    const validation = await this.parse(file, this.today());
    const products = await findProducts(
      this.db,
      validation.validRows.map((r) => r.sku),
      false,
      productsVisibleTo(context),
    );
    const bySku = new Map(products.map((p) => [p.pid, p]));
    const errors = [...validation.errors];
    const valid = validation.validRows.filter((row) => {
      const refusal = refusalOf(context, bySku.get(row.sku));
      if (!refusal) return true;
      errors.push({
        row: row.row,
        field: 'sku',
        message: failedMessage(row.sku, refusal),
        severity: 'error',
      });
      return false;
    });
    errors.sort((a, b) => a.row - b.row);
    const duplicates = valid.filter((row) => bySku.has(row.sku)).map((row) => row.sku);
    const planned = valid.slice(0, IMPORT_LIST_LIMIT);
    const quarters = importQuarterWeeks(this.today());
    const finals = await findFinalPlans(
      this.db,
      planned.filter((row) => bySku.has(row.sku)).map((row) => row.sku),
      { first: quarters[0]![0]!, last: quarters[3]![12]! },
      context.clientIds,
    );
    return {
      fileName: file.fileName,
      totalRows: validation.totalRows,
      validRowCount: valid.length,
      preview: valid.slice(0, 5),
      errors: errors.slice(0, IMPORT_LIST_LIMIT),
      errorCount: errors.length,
      warnings: validation.warnings.slice(0, IMPORT_LIST_LIMIT),
      warningCount: validation.warnings.length,
      duplicates: duplicates.slice(0, IMPORT_LIST_LIMIT),
      duplicateCount: duplicates.length,
      plan: planPreview(planned, new Set(bySku.keys()), finals, quarters, validation.warnings),
    };
  }

  /**
   * Reads and validates the file (a worker thread; every file-level refusal is a 400 here, as is a
   * file without a valid row), then answers the running import at once and applies it in the
   * background.
   */
  async importFile(
    scope: AccessScope,
    clientContext: string | undefined,
    file: Uploaded,
  ): Promise<ImportJob> {
    const context = narrowToContext(scope, clientContext);
    const today = this.today();
    const steps: Steps = {};
    const validation = await this.parse(file, today, steps);
    const nothing = nothingToImportMessage(validation);
    if (nothing) throw AppError.validation(nothing, 'file');
    const invalid = invalidRows(validation);
    const own = await this.begin(scope, file.fileName, validation.validRows.length + invalid.length, steps);
    const id = Number(own.row.id);
    const work = this.apply(context, own, validation.validRows, invalid, today)
      .then(async ({ outcome }) => {
        await this.notify(scope, file.fileName, outcome);
      })
      .catch((error: unknown) => this.options.log.error({ err: error, importId: id }, 'import failed'))
      .finally(() => {
        this.own.delete(id);
        this.work.delete(work);
      });
    this.work.add(work);
    return toJob(own.row, own);
  }

  private async notify(scope: AccessScope, fileName: string, outcome: ImportOutcome): Promise<void> {
    await this.options.notifier?.notify({
      recipients: { userIds: [scope.userId] },
      kind: 'import-finished',
      content: { fileName, imported: outcome.imported, failed: outcome.failed },
    });
  }

  /** The import's row, committed and 'running', and this process's record of it. */
  private async begin(scope: AccessScope, fileName: string, rows: number, steps: Steps): Promise<OwnImport> {
    const row = await insertRunningImport(this.db, {
      fileName: fileName.slice(0, 255),
      by: scope.userName,
      byId: scope.userId,
      rows,
    });
    const own = { row, processed: 0, steps };
    this.own.set(Number(row.id), own);
    return own;
  }

  /** One item (spec §7): the same rules as one row of a file, applied within the request. */
  async importItem(scope: AccessScope, clientContext: string | undefined, item: Omit<ImportRow, 'row'>) {
    const context = narrowToContext(scope, clientContext);
    if (lacksImportReason(item) && (await readPlanningPolicy(this.db)).requireOverrideReason)
      throw AppError.validation(IMPORT_REASON_REQUIRED, 'reasonCode');
    const own = await this.begin(scope, 'POST /api/demand-planning-items', 1, {});
    let rowOutcomes: ImportRowOutcome[];
    try {
      ({ rowOutcomes } = await this.apply(context, own, [{ ...item, row: 1 }], [], this.today()));
    } finally {
      this.own.delete(Number(own.row.id));
    }
    const row = rowOutcomes[0]!;
    if (row.status === 'failed') {
      // A customer's SKU that is not its own is as unknown (ADR 0002: 404, never 403).
      const message = row.message ?? failedMessage(item.sku, NOT_YOUR_PRODUCT);
      throw context.isAdmin ? new AppError('CONFLICT', message) : AppError.notFound(message);
    }
    return row;
  }

  /**
   * Applies the valid rows, all of them or none, in slices that each commit (importSlices), noting
   * in each what would undo it. Rows the caller may not import (refusalOf) fail and are reported
   * without stopping the others; a value that overflows a column stops the whole import with a 400
   * naming the SKU, week and field, and the slices already committed are undone. The import's row
   * turns 'succeeded' with the last transaction; when the import fails the row is marked 'failed'
   * with the reason once its slices are undone, and when the process dies the next one to look
   * undoes them and marks it so. Imports write in turn (a second one waits for the first to end).
   */
  private async apply(
    scope: AccessScope,
    own: OwnImport,
    rows: readonly ImportRow[],
    invalid: ImportRowOutcome[],
    today: Date,
  ): Promise<Applied> {
    if (this.options.databaseKind === 'postgres') {
      const importId = Number(own.row.id);
      return this.db.connection().execute(async (connection) => {
        // Alive while it runs (recoverInterruptedImports), then its turn among imports.
        await holdJob(connection, JOB_LOCK_CLASS.import, importId);
        try {
          await holdJob(connection, JOB_LOCK_CLASS.importTurn, 'imports');
          try {
            return await this.applySlices(connection, scope, own, { rows, invalid, today });
          } finally {
            await releaseJob(connection, JOB_LOCK_CLASS.importTurn, 'imports');
          }
        } finally {
          await releaseJob(connection, JOB_LOCK_CLASS.import, importId);
        }
      });
    }
    const applied = this.turn.then(() => this.applySlices(this.db, scope, own, { rows, invalid, today }));
    this.turn = applied.catch(() => undefined);
    return applied;
  }

  private async applySlices(
    db: Kysely<Database>,
    scope: AccessScope,
    own: OwnImport,
    file: { rows: readonly ImportRow[]; invalid: ImportRowOutcome[]; today: Date },
  ): Promise<Applied> {
    const { rows } = file;
    const importId = Number(own.row.id);
    const { steps } = own;
    const { sliceRows } = this.options;
    const quarters = importQuarterWeeks(file.today);
    const weeks = { first: quarters[0]![0]!, last: quarters[3]![12]! };
    const newClient: ClientId = scope.clientIds.includes('internal') ? 'internal' : scope.clientIds[0]!;
    // The audit rows carry when the change was made, in real time, whatever day the clock says.
    const change = { at: new Date(), by: scope.userName };
    const isPostgres = this.options.databaseKind === 'postgres';
    let progressWritten = 0;
    const progress = async (processed: number, last = false) => {
      own.processed = processed;
      // The embedded database serves one statement at a time: a poll reads `own` instead.
      if (!isPostgres || (!last && performance.now() - progressWritten < PROGRESS_INTERVAL_MS)) return;
      progressWritten = performance.now();
      // On the import's own connection: through the pool it queued behind every request waiting
      // there, and the import stood still between its slices for as long.
      await recordImportProgress(db, importId, processed);
    };

    try {
      const outcomes: ImportRowOutcome[] = [...file.invalid];
      let processed = file.invalid.length;
      await progress(processed);
      const quarterWeeks = quarters.map((q) => q.length);
      for (const slice of importSlices(rows, quarterWeeks, {
        maxRows: sliceRows,
        maxRecords: SLICE_RECORDS,
      })) {
        const sliceOutcomes = await db.transaction().execute(async (trx) => {
          await allowLongImport(trx);
          // Read in the slice's transaction, locked: an earlier slice may have created a SKU.
          const products = await timed(steps, 'findProductsMs', async () => {
            const found = await findProducts(
              trx,
              slice.map((r) => r.sku),
              true,
              productsVisibleTo(scope),
            );
            return new Map(found.map((p) => [p.pid, p]));
          });
          const done: ImportRowOutcome[] = [];
          const created = new ImportPlan(importId, scope.userName, quarters, newClient);
          const updated = new ImportPlan(importId, scope.userName, quarters, newClient);
          const existing: Array<{ row: ImportRow; product: ImportedProduct }> = [];
          for (const row of slice) {
            const product = products.get(row.sku);
            const refusal = refusalOf(scope, product);
            if (refusal) done.push(failed(row.row, row.sku, failedMessage(row.sku, refusal)));
            else if (!product) done.push(created.create(row));
            else existing.push({ row, product });
          }
          const loader = sliceLoader(trx, isPostgres);
          // The new SKUs' products first: nobody else writes them, so a save never waits for them.
          // Records are locked and written last, so a save of the slice's weeks waits only for those.
          await created.writeProducts(trx, loader, steps);
          const records = await timed(steps, 'lockRecordsMs', () =>
            lockRecords(
              trx,
              existing.map((e) => e.product.pid),
              weeks,
              scope.clientIds,
            ),
          );
          const recordsByPid = groupBy(records, (r) => r.pid);
          await timed(steps, 'planMs', async () => {
            for (const { row, product } of existing)
              done.push(updated.update(row, product, recordsByPid.get(product.pid) ?? []));
          });
          await updated.writeProducts(trx, loader, steps);
          await created.writeRecords(trx, loader, change, steps);
          await updated.writeRecords(trx, loader, change, steps);
          return done;
        });
        outcomes.push(...sliceOutcomes);
        processed += slice.length;
        await progress(processed);
        await yieldToOtherRequests();
      }

      outcomes.sort((a, b) => a.row - b.row);
      const count = (status: ImportRowOutcome['status']) =>
        outcomes.filter((o) => o.status === status).length;
      const counts = {
        created: count('created'),
        updated: count('updated'),
        unchanged: count('unchanged'),
        failed: count('failed'),
      };
      const imported = counts.created + counts.updated + counts.unchanged;
      const outcome: ImportOutcome = {
        importId,
        imported,
        ...counts,
        message: outcomeMessage(imported, counts.failed),
        rows: outcomes
          .filter((o) => o.status !== 'unchanged' || o.warnings.length > 0)
          .slice(0, IMPORT_LIST_LIMIT),
      };
      await db.transaction().execute(async (trx) => {
        await finishImport(trx, importId, { counts, outcome, steps });
        await forgetUndo(trx, importId);
      });
      // Only once committed: a poll that reads 'succeeded' then reads the data.
      own.row = { ...own.row, status: 'succeeded', outcome, finished_at: new Date() };
      return { outcome, rowOutcomes: outcomes };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await db.transaction().execute(async (trx) => {
        await allowLongImport(trx);
        await undoImport(trx, importId);
        await failImport(trx, importId, message, steps);
      });
      own.row = { ...own.row, status: 'failed', error: message, finished_at: new Date() };
      throw error;
    }
  }
}

function failed(row: number, sku: string, message: string): ImportRowOutcome {
  return { row, sku, status: 'failed', message, changes: [], warnings: [] };
}

/** Rows the rules refused: the validation reports each as one issue naming its SKU. */
function invalidRows(validation: ImportValidation): ImportRowOutcome[] {
  return validation.errors.map((issue) =>
    failed(issue.row, issue.sku ?? '', failedMessage(issue.sku, issue.message)),
  );
}

/**
 * A new SKU's weekly forecasts and overrides in one quarter: the quarter's forecast split equally
 * in hundredths as the baseline, its override split by that baseline in whole units.
 */
function newQuarterWeeks(
  forecast: number | undefined,
  override: number | undefined,
  weekCount: number,
): { baseline: Array<number | null>; overrides: Array<number | null> } {
  const none = Array.from({ length: weekCount }, () => null);
  const baseline =
    forecast === undefined
      ? none
      : spreadOverWeeks(forecast, Array<number>(weekCount).fill(1), FORECAST_DECIMALS);
  return { baseline, overrides: override === undefined ? none : spreadOverWeeks(override, baseline) };
}

const newRecordSource = (forecast: number | null, override: number | null) => ({
  ensemble_fcst_units: forecast,
  rev_pln_ovrd_percent: null,
  rev_pln_ovrd_units: null,
  sop_pln_ovrd_percent: null,
  sop_pln_ovrd_units: override,
});
/** A new product's cost and price are 0 until someone sets them, so its money is 0. */
const newRecordPlan = (source: ReturnType<typeof newRecordSource>) =>
  planColumns(source, { unit_cost: 0, unit_price: 0 });

/** What a new SKU's weekly record holds: its forecast, override and the override's reason. */
type NewRecordKey = { forecast: number | null; override: number | null; reason: ReasonCode | null };
const newRecordKeyText = (key: NewRecordKey) => `${key.forecast}|${key.override}|${key.reason}`;
const newRecordShape = (key: NewRecordKey): NewWeeks['shapes'][number] => {
  const source = newRecordSource(key.forecast, key.override);
  return { ...source, reason_code: key.reason, comments: null, ...newRecordPlan(source) };
};

/**
 * What an import will do to each row's plan, quarter by quarter (the preview): an existing SKU's
 * quarter Final now and after its override (a quarter without records keeps its plan, as the
 * import warns); a new SKU's quarter Final from its forecast and override, as created. `zeroed`
 * marks a quarter whose value a warning turned into 0.
 */
function planPreview(
  rows: readonly ImportRow[],
  existing: ReadonlySet<string>,
  finals: ReadonlyArray<{ pid: string; week_start: string; final_pln_units: number | null }>,
  quarters: string[][],
  warnings: readonly ImportIssue[],
): ImportPlanRow[] {
  const finalOf = new Map(finals.map((f) => [`${f.pid}|${f.week_start}`, f.final_pln_units ?? 0]));
  const zeroed = new Set(warnings.map((w) => `${w.row}|${w.field}`));
  return rows.map((row) => {
    const isExisting = existing.has(row.sku);
    return {
      row: row.row,
      sku: row.sku,
      action: isExisting ? 'update' : 'create',
      quarters: quarters.map((weeks, q) => {
        const overrideField = IMPORT_OVERRIDE_FIELDS[q]!;
        const forecastField = IMPORT_FORECAST_FIELDS[q]!;
        const override = row[overrideField];
        const zeroedOverride = zeroed.has(`${row.row}|${overrideField}`);
        if (isExisting) {
          const held = weeks.filter((week) => finalOf.has(`${row.sku}|${week}`));
          const before =
            held.length === 0 ? null : held.reduce((sum, w) => sum + finalOf.get(`${row.sku}|${w}`)!, 0);
          const after = override !== undefined && before !== null ? override : before;
          return { quarter: q + 1, before, after, zeroed: zeroedOverride };
        }
        const { baseline, overrides } = newQuarterWeeks(row[forecastField], override, weeks.length);
        const after =
          row[forecastField] === undefined && override === undefined
            ? null
            : weeks.reduce(
                (sum, _, w) =>
                  sum +
                  (newRecordPlan(newRecordSource(baseline[w] ?? null, overrides[w] ?? null))
                    .final_pln_units ?? 0),
                0,
              );
        return {
          quarter: q + 1,
          before: null,
          after,
          zeroed: zeroedOverride || zeroed.has(`${row.row}|${forecastField}`),
        };
      }),
    };
  });
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

const auditText = (value: number | string | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

/** The writes an import collects row by row, then sends in a few bulk statements. */
class ImportPlan {
  readonly newProducts: Parameters<typeof insertProducts>[1][number][] = [];
  /**
   * New SKUs' weekly records, each of a few distinct shapes (insertNewSkuWeeks): a file's new SKUs
   * repeat a few forecast and override splits, so many records need few plan-chain computations.
   */
  readonly newWeeks: NewSkuRecords<NewRecordKey, NewWeeks['shapes'][number]>;
  readonly recordUpdates: RecordWrite[] = [];
  readonly places: ProductPlaceUpdate[] = [];
  readonly details: ProductDetails[] = [];
  /** The details of the products this plan creates: inserted, as none has a row yet. */
  readonly newDetails: ProductDetails[] = [];
  readonly audit: AuditWrite[] = [];
  readonly productAudit: ProductAuditWrite[] = [];
  /** The products whose place or details this plan changes, as they were: what undoing it restores. */
  readonly productUndo: ProductUndo[] = [];

  constructor(
    private readonly importId: number,
    private readonly by: string,
    private readonly quarters: string[][],
    /** The client a new SKU belongs to: the importer's. */
    private readonly newClient: ClientId,
  ) {
    this.newWeeks = new NewSkuRecords(quarters.flat(), newRecordShape, newRecordKeyText);
  }

  /**
   * A new SKU: the product, and the weekly records of the quarters the row gives a value for (a
   * forecast, split equally over the quarter's 13 weeks as the baseline, and/or an override).
   * A quarter without values gets no records, as a product has none where nothing is planned.
   */
  create(row: ImportRow): ImportRowOutcome {
    const clientId = this.newClient;
    this.newProducts.push({
      pid: row.sku,
      client_id: clientId,
      bu: row.businessUnit,
      pf: row.category,
      class: UNASSIGNED,
      region: row.region ?? UNASSIGNED,
      site: row.site ?? UNASSIGNED,
      entity_type: UNASSIGNED,
      unit_cost: 0,
      unit_price: 0,
    });
    if (row.plannerName !== undefined || row.notes !== undefined)
      this.newDetails.push({ pid: row.sku, planner_name: row.plannerName ?? null, notes: row.notes ?? null });
    this.productAudit.push(
      this.productAuditRow(clientId, row.sku, PRODUCT_CREATED.field, null, PRODUCT_CREATED.value),
    );
    const changes: ImportRowOutcome['changes'] = [];
    let firstWeek = 0;
    this.quarters.forEach((weeks, q) => {
      const forecast = row[IMPORT_FORECAST_FIELDS[q]!];
      const override = row[IMPORT_OVERRIDE_FIELDS[q]!];
      if (forecast === undefined && override === undefined) {
        firstWeek += weeks.length;
        return;
      }
      const { baseline, overrides } = newQuarterWeeks(forecast, override, weeks.length);
      weeks.forEach((_, w) => {
        const weekOverride = overrides[w] ?? null;
        this.newWeeks.add(row.sku, firstWeek + w, {
          forecast: baseline[w] ?? null,
          override: weekOverride,
          // The reason code goes with an override only.
          reason: weekOverride === null ? null : (row.reasonCode ?? null),
        });
      });
      firstWeek += weeks.length;
      if (forecast !== undefined)
        changes.push({
          field: IMPORT_FORECAST_FIELDS[q]!,
          quarter: q + 1,
          oldValue: null,
          newValue: forecast,
        });
      if (override !== undefined)
        changes.push({
          field: IMPORT_OVERRIDE_FIELDS[q]!,
          quarter: q + 1,
          oldValue: null,
          newValue: override,
        });
    });
    return { row: row.row, sku: row.sku, status: 'created', changes, warnings: [] };
  }

  /**
   * An existing SKU: each quarterly override that differs from the quarter's current Final total
   * becomes that quarter's S&OP override units, split by the statistical forecast; attributes given
   * and different update the product. Forecast columns of an existing SKU are the system's and stay.
   */
  update(row: ImportRow, product: ImportedProduct, records: DemandRecordRow[]): ImportRowOutcome {
    const changes: ImportRowOutcome['changes'] = [];
    const warnings: string[] = [];
    const byWeek = new Map(records.map((r) => [r.week_start, r]));
    this.quarters.forEach((weeks, q) => {
      const field = IMPORT_OVERRIDE_FIELDS[q]!;
      const total = row[field];
      if (total === undefined) return;
      const quarterRecords = weeks.flatMap((week) => byWeek.get(week) ?? []);
      if (quarterRecords.length === 0) {
        warnings.push(`${row.sku} has no weeks in Q${q + 1}; ${field} was not applied`);
        return;
      }
      const current = quarterRecords.reduce((sum, r) => sum + (r.final_pln_units ?? 0), 0);
      if (current === total) return;
      const shares = spreadOverWeeks(
        total,
        quarterRecords.map((r) => r.ensemble_fcst_units),
      );
      quarterRecords.forEach((record, i) => this.override(record, shares[i] ?? 0, row.reasonCode));
      changes.push({ field, quarter: q + 1, oldValue: current, newValue: total });
    });
    if (row.category !== product.pf || row.businessUnit !== product.bu)
      warnings.push(`${row.sku}: category and business unit are kept as ${product.pf} / ${product.bu}`);

    const region = row.region ?? product.region;
    const site = row.site ?? product.site;
    const planner = row.plannerName ?? product.planner_name;
    const notes = row.notes ?? product.notes;
    const attributeChanges: Array<[string, string | null, string | null]> = [
      ['region', product.region, region],
      ['site', product.site, site],
      ['plannerName', product.planner_name, planner],
      ['notes', product.notes, notes],
    ];
    for (const [field, before, after] of attributeChanges) {
      if (before === after) continue;
      changes.push({ field, oldValue: before, newValue: after });
      this.productAudit.push(this.productAuditRow(product.client_id, product.pid, field, before, after));
    }
    if (region !== product.region || site !== product.site)
      this.places.push({ pid: product.pid, region, site });
    if (planner !== product.planner_name || notes !== product.notes)
      this.details.push({ pid: product.pid, planner_name: planner, notes });
    if (attributeChanges.some(([, before, after]) => before !== after))
      this.productUndo.push({
        pid: product.pid,
        region: product.region,
        site: product.site,
        planner_name: product.planner_name,
        notes: product.notes,
      });
    return {
      row: row.row,
      sku: row.sku,
      status: changes.length > 0 ? 'updated' : 'unchanged',
      changes,
      warnings,
    };
  }

  /** One week's S&OP override units; the row's reason code, when it gives one, goes with them. */
  private override(record: DemandRecordRow, units: number, reasonCode: ReasonCode | undefined): void {
    if (record.sop_pln_ovrd_units === units) return;
    const reason = reasonCode ?? record.reason_code;
    const next = { ...record, sop_pln_ovrd_units: units };
    const plan = planColumns(next, record);
    parseInput(
      ZDerivedValuesSchema,
      {
        Act_Bkg_Cost: record.act_bkg_cost,
        Act_Rev_Dlrs: record.act_rev_dlrs,
        Prelim_Pln_Units: plan.prelim_pln_units,
        Prelim_Pln_Cost: plan.prelim_pln_cost,
        Prelim_Pln_Rev_Dlrs: plan.prelim_pln_rev_dlrs,
        Final_Pln_Units: plan.final_pln_units,
        Final_Bk_Pln_Cost: plan.final_bk_pln_cost,
        Final_Pln_Rev_Dlrs: plan.final_pln_rev_dlrs,
      },
      `${record.pid} / ${record.week_start}`,
    );
    this.recordUpdates.push({
      pid: record.pid,
      week_start: record.week_start,
      ensemble_fcst_units: record.ensemble_fcst_units,
      rev_pln_ovrd_percent: record.rev_pln_ovrd_percent,
      rev_pln_ovrd_units: record.rev_pln_ovrd_units,
      sop_pln_ovrd_percent: record.sop_pln_ovrd_percent,
      sop_pln_ovrd_units: units,
      reason_code: reason,
      comments: record.comments,
      ...plan,
    });
    this.audit.push(this.auditRow(record, 'SOP_Pln_Ovrd_Units', record.sop_pln_ovrd_units, units));
    if (reason !== record.reason_code)
      this.audit.push(this.auditRow(record, 'Reason_Code', record.reason_code, reason));
  }

  private auditRow(
    record: DemandRecordRow,
    field: 'SOP_Pln_Ovrd_Units' | 'Reason_Code',
    before: number | string | null,
    after: number | string | null,
  ): AuditWrite {
    return {
      client_id: record.client_id,
      pid: record.pid,
      week_start: record.week_start,
      field,
      old_value: auditText(before),
      new_value: auditText(after),
      changed_by: this.by,
      source: SOURCE,
      import_id: this.importId,
    };
  }

  private productAuditRow(
    clientId: string,
    pid: string,
    field: string,
    before: string | null,
    after: string | null,
  ): ProductAuditWrite {
    return {
      client_id: clientId,
      pid,
      field,
      old_value: before,
      new_value: after,
      changed_by: this.by,
      source: SOURCE,
      import_id: this.importId,
    };
  }

  /**
   * The plan's product writes, after their undo notes: new products, their details and their
   * audit rows. Nobody else writes these, so they go before anything that locks kept totals.
   * `steps` gets the milliseconds of each kind.
   */
  async writeProducts(trx: Transaction<Database>, loader: BulkLoader, steps: Steps): Promise<void> {
    await timed(steps, 'writeUndoNotesMs', () => noteUndoProducts(trx, this.importId, this.productUndo));
    await timed(steps, 'writeProductsMs', () => insertProducts(loader, this.newProducts));
    await timed(steps, 'writeDetailsMs', async () => {
      await insertNewProductDetails(loader, this.newDetails);
      await upsertProductDetails(trx, this.details);
    });
    await timed(steps, 'writeAuditMs', () => insertProductAudit(loader, this.productAudit));
  }

  /**
   * The plan's record writes, after their undo notes and audit rows. A record's roll-up and a
   * product's move lock their product groups' totals rows, which every save in those groups
   * updates too: they come last, in one run before the commit, so the slice holds those rows only
   * from these writes to its commit. `steps` gets the milliseconds of each kind (the records' with
   * their roll-up).
   */
  async writeRecords(
    trx: Transaction<Database>,
    loader: BulkLoader,
    change: { at: Date; by: string },
    steps: Steps,
  ): Promise<void> {
    await timed(steps, 'writeUndoNotesMs', () => noteUndoRecords(trx, this.importId, this.recordUpdates));
    await timed(steps, 'writeAuditMs', () => insertAudit(loader, this.audit));
    await timed(steps, 'writeDetailsMs', () => updateProductPlaces(trx, this.places));
    await timed(steps, 'writeNewRecordsMs', () =>
      insertNewSkuWeeks(trx, this.newWeeks, change, {
        clientId: this.newClient,
        source: SOURCE,
        importId: this.importId,
      }),
    );
    await timed(steps, 'writeUpdatedRecordsMs', () => updateRecords(trx, this.recordUpdates, change));
  }
}
