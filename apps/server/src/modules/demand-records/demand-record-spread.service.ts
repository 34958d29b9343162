import {
  OVERRIDE_STAGES,
  originOfSource,
  REASON_CODES,
  spreadPercent,
  spreadUnits,
  type EditableField,
  type LockRequest,
  type ReasonCode,
  type RecordHistoryEntry,
  type SpreadOutcome,
  type SpreadRequest,
  type SpreadResult,
} from '@ps/domain';
import type { Kysely } from 'kysely';
import { EDITABLE_COLUMNS, weekStartOf, type DemandRecordRow } from '../../db/demand-record-row';
import type { Database } from '../../db/schema';
import { narrowToContext, type AccessScope } from '../../lib/access';
import { AppError } from '../../lib/errors';
import { findCellRecords, lastSaveAudit, recordHistory, setLocks } from './demand-record-spread.repository';
import {
  findDemandRecordsForUpdate,
  insertAuditRows,
  updateDemandRecordsBulk,
} from './demand-record.repository';
import { prepareWrite, type AuditRow } from './demand-record.service';

const LEVEL_LABEL = { sku: 'Product', category: 'Product Family', business_unit: 'Business Unit' } as const;

const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * Aggregate edits (issue 15, Must 1): a figure typed into a product, family or business-unit
 * cell is spread over the records under it by the domain's rules, in one transaction, with the
 * plan chain recomputed and every changed field audited with the aggregate edit as its cause.
 */
export class DemandRecordSpreadService {
  constructor(private readonly db: Kysely<Database>) {}

  async spread(scope: AccessScope, request: SpreadRequest): Promise<SpreadResult> {
    const { clientIds } = narrowToContext(scope, request.clientContext);
    const cell = {
      viewLevel: request.viewLevel,
      drillDown: request.drillDown,
      group: request.group,
      periodKey: request.drillDown === 'none' ? '' : (request.periodKey ?? ''),
      filters: {
        clientIds,
        bu: request.bu,
        pf: request.pf,
        region: request.region,
        search: request.search || undefined,
      },
    };
    const stage = OVERRIDE_STAGES.find((s) => s.percent === request.field || s.units === request.field)!;
    const isPercent = request.field === stage.percent;
    const unitsOf = (row: DemandRecordRow): number =>
      Number((stage.result === 'Prelim_Pln_Units' ? row.prelim_pln_units : row.final_pln_units) ?? 0);
    const cause = `${LEVEL_LABEL[request.viewLevel]} ${request.group}${
      cell.periodKey ? ` · ${cell.periodKey}` : ''
    }: ${request.field} = ${request.value}`;

    let result: SpreadResult | undefined;
    await this.db.transaction().execute(async (trx) => {
      const rows = await findCellRecords(trx, cell, { forUpdate: !request.preview });
      if (rows.length === 0)
        throw AppError.notFound(
          `No records of yours are under ${LEVEL_LABEL[request.viewLevel]} ${request.group}`,
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
                // A percent typed at the aggregate is meant to apply, so it replaces the stage's units.
                isPercent ? { [stage.percent]: share, [stage.units]: null } : { [stage.units]: share },
                'spread',
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
      if (!request.preview && writes.length > 0) {
        await updateDemandRecordsBulk(trx, writes, { at: new Date(), by: scope.userName });
        await insertAuditRows(trx, audit);
      }
      result = {
        saved: !request.preview && writes.length > 0,
        records: rows.length,
        changedRecords: writes.length,
        lockedRecords: rows.filter((row) => row.locked).length,
        unitsBefore: rows.reduce((sum, row) => sum + unitsOf(row), 0),
        unitsAfter,
        revenueDelta: cents(revenueDelta),
        costDelta: cents(costDelta),
      };
    });
    return result!;
  }

  /**
   * Undo of the caller's last save (issue 15, Must 7), as a new audited change: each field goes
   * back to the value it had, if it still holds what that save wrote; otherwise nothing is undone
   * (409), so an undo never overwrites someone's later work.
   */
  async undoLastSave(scope: AccessScope): Promise<{ updatedRecords: number; changedFields: number }> {
    let outcome = { updatedRecords: 0, changedFields: 0 };
    await this.db.transaction().execute(async (trx) => {
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
      for (const entry of audit) {
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

/** An audited value as the field holds it: numbers for the overrides, text for code and comment. */
function restoredValue(field: string, text: string | null): string | number | null {
  if (text === null) return null;
  return field === 'Reason_Code' || field === 'Comments' ? text : Number(text);
}

const keyOf = (row: { pid: string; week_start: string }): string => `${row.pid}|${row.week_start}`;
