import {
  OVERRIDE_STAGES,
  originOfSource,
  REASON_CODES,
  requestedWeeks,
  spreadPercent,
  spreadUnits,
  type EditableField,
  type LockRequest,
  type PlanClock,
  type ReasonCode,
  type RecordHistoryEntry,
  type SpreadOutcome,
  type SpreadBatchRequest,
  type SpreadCell,
  type SpreadRequest,
  type SpreadCellResult,
  type SpreadResult,
} from '@ps/domain';
import type { Kysely, Transaction } from 'kysely';
import { EDITABLE_COLUMNS, weekStartOf, type WritableRecordRow } from '../../db/demand-record-row';
import type { Database } from '../../db/schema';
import { writeTransaction } from '../../db/write-transaction';
import { narrowToContext, type AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import { cellRowOf } from '../planning-grid';
import {
  findCellRecords,
  lastSaveAudit,
  recordHistory,
  setLocks,
  type GroupCell,
} from './demand-record-spread.repository';
import {
  findDemandRecordsForUpdate,
  insertAuditRows,
  updateDemandRecordsBulk,
} from './demand-record.repository';
import { prepareWrite, type AuditRow } from './demand-record.service';
import { readPlanningPolicy } from './planning-policy.repository';

const LEVEL_LABEL = { sku: 'Product', category: 'Product Family', business_unit: 'Business Unit' } as const;

const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * Aggregate edits: a figure typed into a product, family or business-unit
 * cell is spread over the records under it by the domain's rules, in one transaction, with the
 * plan chain recomputed and every changed field audited with the aggregate edit as its cause.
 */
export class DemandRecordSpreadService {
  constructor(
    private readonly db: Kysely<Database>,
    /** What the view's named period (the horizon, history) is measured from. */
    private readonly planClock: () => PlanClock,
  ) {}

  async spread(scope: AccessScope, request: SpreadRequest): Promise<SpreadCellResult> {
    const view = this.viewOf(scope, request);
    return writeTransaction(this.db, async (trx) => {
      const result = resultOf(
        [await this.spreadCell(trx, scope, view, request, { write: !request.preview })],
        request,
      );
      if (!result.saved) return result;
      // The cell's row as the view now sums it, read in the transaction that wrote it: the grid
      // puts it in place of the old row instead of reading the whole page again.
      const row = await cellRowOf(trx, {
        ...view,
        group: request.group,
        periodKey: view.drillDown === 'none' ? '' : (request.periodKey ?? ''),
      });
      return row ? { ...result, row } : result;
    });
  }

  /**
   * Several aggregate edits in one transaction (a range pasted into the time-phased view), each
   * spread in turn over the records as the ones before it left them. A preview runs the same
   * writes and rolls them back, so it answers exactly what the save would move even when two
   * cells share records (Prelim and Final overrides of one period, say).
   */
  async spreadBatch(scope: AccessScope, request: SpreadBatchRequest): Promise<SpreadResult> {
    const view = this.viewOf(scope, request);
    let result: SpreadResult | undefined;
    try {
      await writeTransaction(this.db, async (trx) => {
        const spreads: CellSpread[] = [];
        for (const cell of request.cells)
          spreads.push(await this.spreadCell(trx, scope, view, cell, { write: true }));
        result = resultOf(spreads, request);
        if (request.preview) throw new PreviewRollback();
      });
    } catch (error) {
      if (!(error instanceof PreviewRollback)) throw error;
    }
    return result!;
  }

  private viewOf(
    scope: AccessScope,
    request: Pick<
      SpreadRequest,
      | 'viewLevel'
      | 'drillDown'
      | 'bu'
      | 'pf'
      | 'region'
      | 'search'
      | 'clientContext'
      | 'period'
      | 'fromWeek'
      | 'toWeek'
    >,
  ): Omit<GroupCell, 'group' | 'periodKey'> {
    const { clientIds } = narrowToContext(scope, request.clientContext);
    // The view's weeks: a roll-up row sums only them, so its edit spreads over them only.
    const weeks = requestedWeeks(request, this.planClock());
    if ('problem' in weeks) throw AppError.validation(`${weeks.field} ${weeks.problem}`, weeks.field);
    return {
      viewLevel: request.viewLevel,
      drillDown: request.drillDown,
      filters: {
        clientIds,
        bu: request.bu,
        pf: request.pf,
        region: request.region,
        search: request.search || undefined,
        weeks: weeks.range,
      },
    };
  }

  /** One cell's spread inside the caller's transaction: what it moves, written when `write`. */
  private async spreadCell(
    trx: Transaction<Database>,
    scope: AccessScope,
    view: Omit<GroupCell, 'group' | 'periodKey'>,
    request: SpreadCell,
    options: { write: boolean },
  ): Promise<CellSpread> {
    const cell: GroupCell = {
      ...view,
      group: request.group,
      periodKey: view.drillDown === 'none' ? '' : (request.periodKey ?? ''),
    };
    const stage = OVERRIDE_STAGES.find((s) => s.percent === request.field || s.units === request.field)!;
    const isPercent = request.field === stage.percent;
    const unitsOf = (row: WritableRecordRow): number =>
      Number((stage.result === 'Prelim_Pln_Units' ? row.prelim_pln_units : row.final_pln_units) ?? 0);
    const cause = `${LEVEL_LABEL[view.viewLevel]} ${request.group}${
      cell.periodKey ? ` · ${cell.periodKey}` : ''
    }: ${request.field} = ${request.value}`;

    const rows = await findCellRecords(trx, cell, { forUpdate: options.write });
    // A preview shows what the spread moves even before the planner picks the reason code the
    // admin may require; the save is where the policy holds.
    const policy = options.write ? await readPlanningPolicy(trx) : undefined;
    if (rows.length === 0)
      throw AppError.notFound(
        `No records of yours are under ${LEVEL_LABEL[view.viewLevel]} ${request.group}`,
      );
    const outcome: SpreadOutcome = isPercent
      ? spreadPercent(
          request.value,
          rows.map((row) => ({ key: keyOf(row), locked: row.locked })),
        )
      : spreadUnits(
          request.value,
          rows.map((row) => ({
            key: keyOf(row),
            current: unitsOf(row),
            weight: Number(row.final_pln_units ?? 0),
            fallbackWeight: Number(row.ensemble_fcst_units ?? 0),
            locked: row.locked,
          })),
        );
    if (!outcome.ok) {
      throw AppError.validation(
        outcome.reason === 'all-locked'
          ? 'value cannot be spread: every record under this cell is locked'
          : `value must be at least ${outcome.lockedTotal}: locked records under this cell already hold that many units`,
        'value',
      );
    }
    const writes: NonNullable<ReturnType<typeof prepareWrite>>['write'][] = [];
    const audit: AuditRow[] = [];
    let revenueDelta = 0;
    let costDelta = 0;
    let unitsAfter = 0;
    for (const row of rows) {
      const share = outcome.values.get(keyOf(row));
      const prepared =
        share === undefined
          ? null
          : prepareWrite(
              scope,
              row,
              {
                // A percent typed at the aggregate is meant to apply, so it replaces the stage's units.
                ...(isPercent ? { [stage.percent]: share, [stage.units]: null } : { [stage.units]: share }),
                ...(request.reasonCode === undefined ? {} : { Reason_Code: request.reasonCode }),
              },
              'spread',
              policy,
            );
      if (!prepared) {
        unitsAfter += unitsOf(row);
        continue;
      }
      const next = prepared.write.values;
      unitsAfter += Number(
        (stage.result === 'Prelim_Pln_Units' ? next.prelim_pln_units : next.final_pln_units) ?? 0,
      );
      revenueDelta += Number(next.final_pln_rev_dlrs ?? 0) - Number(row.final_pln_rev_dlrs ?? 0);
      costDelta += Number(next.final_bk_pln_cost ?? 0) - Number(row.final_bk_pln_cost ?? 0);
      writes.push(prepared.write);
      audit.push(...prepared.audit.map((entry) => ({ ...entry, cause })));
    }
    if (options.write && writes.length > 0) {
      // Audit first, as a batch does: the update's roll-up locks totals rows other saves share.
      await insertAuditRows(trx, audit);
      await updateDemandRecordsBulk(trx, writes, { at: new Date(), by: scope.userName });
    }
    return {
      records: rows.map(keyOf),
      changed: writes.map((w) => `${w.pid}|${w.weekStart}`),
      locked: rows.filter((row) => row.locked).map(keyOf),
      unitsBefore: rows.reduce((sum, row) => sum + unitsOf(row), 0),
      unitsAfter,
      revenueDelta,
      costDelta,
    };
  }

  /**
   * Undo of the caller's last save, as a new audited change: each field goes
   * back to the value it had, if it still holds what that save wrote; otherwise nothing is undone
   * (409), so an undo never overwrites someone's later work.
   */
  /** How many records the caller's last save changed: what Undo Last Save would revert. */
  async lastSaveSize(scope: AccessScope): Promise<{ records: number }> {
    const audit = await lastSaveAudit(this.db, scope.userName, scope.clientIds);
    return { records: new Set(audit.map((a) => `${a.pid}|${a.week_start}`)).size };
  }

  async undoLastSave(scope: AccessScope): Promise<{ updatedRecords: number; changedFields: number }> {
    let outcome = { updatedRecords: 0, changedFields: 0 };
    await writeTransaction(this.db, async (trx) => {
      const audit = await lastSaveAudit(trx, scope.userName, scope.clientIds);
      if (audit.length === 0) throw AppError.notFound('You have no save to undo');
      const keys = [...new Map(audit.map((a) => [`${a.pid}|${a.week_start}`, a])).values()].map((a) => ({
        pid: a.pid,
        weekStart: a.week_start,
      }));
      const rows = new Map(
        (await findDemandRecordsForUpdate(trx, keys, scope.clientIds)).map((r) => [
          `${r.pid}|${r.week_start}`,
          r,
        ]),
      );
      const patches = new Map<string, Record<string, string | number | null>>();
      for (const entry of netChanges(audit)) {
        const row = rows.get(`${entry.pid}|${entry.week_start}`);
        const column = EDITABLE_COLUMNS[entry.field as EditableField];
        const current = row && column ? row[column] : undefined;
        if (current === undefined || (current === null ? null : String(current)) !== entry.new_value)
          throw new AppError(
            'STALE',
            `${entry.pid} / ${entry.week_start} ${entry.field} was changed after your last save; nothing was undone`,
          );
        const patch = patches.get(`${entry.pid}|${entry.week_start}`) ?? {};
        patch[entry.field] = restoredValue(entry.field, entry.old_value);
        patches.set(`${entry.pid}|${entry.week_start}`, patch);
      }
      const cause = `Undo of the save at ${new Date(audit[0]!.changed_at).toISOString()}`;
      const writes: NonNullable<ReturnType<typeof prepareWrite>>['write'][] = [];
      const undoAudit: AuditRow[] = [];
      for (const [key, patch] of patches) {
        const prepared = prepareWrite(scope, rows.get(key)!, patch, 'undo');
        if (!prepared) continue;
        writes.push(prepared.write);
        undoAudit.push(...prepared.audit.map((entry) => ({ ...entry, cause })));
      }
      await updateDemandRecordsBulk(trx, writes, { at: new Date(), by: scope.userName });
      await insertAuditRows(trx, undoAudit);
      outcome = { updatedRecords: writes.length, changedFields: undoAudit.length };
    });
    return outcome;
  }

  async setLocks(scope: AccessScope, request: LockRequest): Promise<{ records: number; locked: boolean }> {
    const keys = request.records.map((r) => ({ pid: r.PID, weekStart: weekStartOf(r.Time_Series_sk) }));
    const records = await this.db
      .transaction()
      .execute((trx) =>
        setLocks(trx, keys, { locked: request.locked, by: scope.userName, clientIds: scope.clientIds }),
      );
    if (records === 0) throw AppError.notFound('None of these records was found');
    return { records, locked: request.locked };
  }

  async history(
    scope: AccessScope,
    key: { pid: string; timeSeriesSk: string },
  ): Promise<RecordHistoryEntry[]> {
    const rows = await recordHistory(
      this.db,
      { pid: key.pid, weekStart: weekStartOf(key.timeSeriesSk) },
      scope.clientIds,
    );
    if (!rows) throw AppError.notFound(`Demand record ${key.pid} / ${key.timeSeriesSk} was not found`);
    return rows.map((row) => ({
      id: row.id,
      field: row.field,
      oldValue: row.old_value,
      newValue: row.new_value,
      changedBy: row.changed_by,
      changedAt: new Date(row.changed_at).toISOString(),
      origin: originOfSource(row.source),
      source: row.source,
      cause: row.cause,
      reasonCode: (REASON_CODES as readonly string[]).includes(row.reason_code ?? '')
        ? (row.reason_code as ReasonCode)
        : null,
      comment: row.comment,
    }));
  }
}

/**
 * One save's net change per field: a batch may write a field twice (a pasted S&OP percent clears
 * the stage's units, the units pasted after it set them again), so the field goes back to the
 * value before the first write, and only the last write must still be there. `audit` is in the
 * order it was written.
 */
function netChanges<
  A extends {
    pid: string;
    week_start: string;
    field: string;
    old_value: string | null;
    new_value: string | null;
  },
>(audit: readonly A[]): A[] {
  const net = new Map<string, A>();
  for (const entry of audit) {
    const key = `${entry.pid}|${entry.week_start}|${entry.field}`;
    const first = net.get(key);
    net.set(key, first ? { ...entry, old_value: first.old_value } : entry);
  }
  return [...net.values()];
}

/** An audited value as the field holds it: numbers for the overrides, text for code and comment. */
function restoredValue(field: string, text: string | null): string | number | null {
  if (text === null) return null;
  return field === 'Reason_Code' || field === 'Comments' ? text : Number(text);
}

const keyOf = (row: { pid: string; week_start: string }): string => `${row.pid}|${row.week_start}`;

/** What one cell's spread moved, by record key, so that a batch counts a record once. */
type CellSpread = {
  records: string[];
  changed: string[];
  locked: string[];
  unitsBefore: number;
  unitsAfter: number;
  revenueDelta: number;
  costDelta: number;
};

/** Thrown to roll a batch preview back after it has computed what the save would move. */
class PreviewRollback extends Error {}

/** The answer of one or more cells' spreads: distinct records, summed units and money. */
function resultOf(spreads: readonly CellSpread[], request: { preview: boolean }): SpreadResult {
  const distinct = (pick: (spread: CellSpread) => string[]) => new Set(spreads.flatMap(pick)).size;
  const sum = (pick: (spread: CellSpread) => number) => spreads.reduce((total, s) => total + pick(s), 0);
  const changedRecords = distinct((s) => s.changed);
  return {
    saved: !request.preview && changedRecords > 0,
    records: distinct((s) => s.records),
    changedRecords,
    lockedRecords: distinct((s) => s.locked),
    unitsBefore: sum((s) => s.unitsBefore),
    unitsAfter: sum((s) => s.unitsAfter),
    revenueDelta: cents(sum((s) => s.revenueDelta)),
    costDelta: cents(sum((s) => s.costDelta)),
  };
}
