import {
  derivedValuesFit,
  lacksOverrideReason,
  EDITABLE_FIELDS,
  ZDerivedValuesSchema,
  moneyOf,
  type BatchUpdate,
  type CreateDemandRecord,
  type DemandRecord,
  type EditableField,
  type ListDemandRecordsQuery,
  type PlanningPolicy,
  type UpdateDemandRecord,
} from '@ps/domain';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { narrowToContext, type AccessScope } from '../../lib/access';
import {
  deleteDemandRecord,
  demandRecordExists,
  findDemandRecord,
  findDemandRecordsForUpdate,
  findProduct,
  insertAuditRows,
  insertDemandRecord,
  insertProduct,
  listDemandRecords,
  updateDemandRecordsBulk,
  BATCH_COLUMNS,
  type BatchValues,
} from './demand-record.repository';
import type { DemandRecordRow, WritableRecordRow } from '../../db/demand-record-row';
import type { AuditLogTable, Database, DemandRecordsTable } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import {
  EDITABLE_COLUMNS,
  planColumns,
  recordJsonOf,
  toDemandRecord,
  weekStartOf,
} from '../../db/demand-record-row';
import { JsonText } from '../../lib/json-text';
import type { PageTokens } from './page-token';
import { readPlanningPolicy, savePlanningPolicy } from './planning-policy.repository';
import { writeTransaction } from '../../db/write-transaction';
import type { EarlierAuthor, Notifier, RecordChange } from '../notifications';

export type DemandRecordPage = { items: DemandRecord[]; count: number; nextToken: string | null };
type Key = { pid: string; timeSeriesSk: string };
type Patch = Omit<UpdateDemandRecord, 'version'>;

const notFound = (key: Key): AppError =>
  AppError.notFound(`Demand record ${key.pid} / ${key.timeSeriesSk} was not found`);

const auditText = (value: string | number | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

/** The editable fields whose value really changes; an edit to the same value is ignored. */
function changedFields(row: WritableRecordRow, patch: Patch): EditableField[] {
  return EDITABLE_FIELDS.filter((field) => {
    const next = patch[field];
    return next !== undefined && next !== row[EDITABLE_COLUMNS[field]];
  });
}

export type AuditRow = Omit<Insertable<AuditLogTable>, 'id' | 'changed_at'>;

/** Refuses a write whose derived values (plan chain, actual money) overflow their columns: 400 naming the field. */
function assertStorable(values: Partial<Insertable<DemandRecordsTable>>, context?: string): void {
  const derived = {
    Act_Bkg_Cost: values.act_bkg_cost ?? null,
    Act_Rev_Dlrs: values.act_rev_dlrs ?? null,
    Prelim_Pln_Units: values.prelim_pln_units ?? null,
    Prelim_Pln_Cost: values.prelim_pln_cost ?? null,
    Prelim_Pln_Rev_Dlrs: values.prelim_pln_rev_dlrs ?? null,
    Final_Pln_Units: values.final_pln_units ?? null,
    Final_Bk_Pln_Cost: values.final_bk_pln_cost ?? null,
    Final_Pln_Rev_Dlrs: values.final_pln_rev_dlrs ?? null,
  };
  if (!derivedValuesFit(derived)) parseInput(ZDerivedValuesSchema, derived, context);
}

/** Product attributes a create may repeat; for a known PID each must equal the product's. */
const PRODUCT_ATTRIBUTES = [
  ['BU', 'bu'],
  ['PF', 'pf'],
  ['Class', 'class'],
  ['Region', 'region'],
  ['Site', 'site'],
  ['EntityType', 'entity_type'],
  ['Cost', 'unit_cost'],
  ['Unit_Price', 'unit_price'],
] as const;

/** One audit row per changed editable field. */
function auditRowsOf(
  scope: AccessScope,
  row: WritableRecordRow,
  patch: Patch,
  fields: EditableField[],
  source: string,
): AuditRow[] {
  return fields.map((field) => ({
    client_id: row.client_id,
    pid: row.pid,
    week_start: row.week_start,
    field,
    old_value: auditText(row[EDITABLE_COLUMNS[field]]),
    new_value: auditText(patch[field]),
    changed_by: scope.userName,
    source,
  }));
}

/**
 * What saving a patch writes: the changed editable fields with the plan chain recomputed from
 * them, and one audit row per changed field. Null when nothing really changes. With the admin's
 * policy that an override carries a reason code, a patch that sets an override and leaves the
 * record without one is refused (400 naming Reason_Code); an undo passes no policy, since it
 * only puts back what was there.
 */
export function prepareWrite(
  scope: AccessScope,
  row: WritableRecordRow,
  patch: Patch,
  source: string,
  policy?: PlanningPolicy,
): { write: { pid: string; weekStart: string; values: BatchValues }; audit: AuditRow[] } | null {
  const fields = changedFields(row, patch);
  if (fields.length === 0) return null;
  const merged = { ...row };
  for (const field of fields) (merged as Record<string, unknown>)[EDITABLE_COLUMNS[field]] = patch[field];
  if (
    policy?.requireOverrideReason &&
    lacksOverrideReason(
      Object.fromEntries(fields.map((f) => [f, patch[f]])),
      merged[EDITABLE_COLUMNS.Reason_Code],
    )
  )
    throw AppError.validation(
      `Reason_Code is required: ${source === 'edit' ? 'this record' : `${row.pid} / ${row.week_start}`} gets an override, and an admin requires every override to carry a reason code`,
      'Reason_Code',
    );
  const next = Object.assign(merged, planColumns(merged, row));
  assertStorable(next, source === 'edit' ? undefined : `${row.pid} / ${row.week_start}`);
  const values = Object.fromEntries(BATCH_COLUMNS.map((c) => [c.name, next[c.name]])) as BatchValues;
  return {
    write: { pid: row.pid, weekStart: row.week_start, values },
    audit: auditRowsOf(scope, row, patch, fields, source),
  };
}

/**
 * A record as its write left it, without reading it again: the row stays locked until the commit,
 * so it is as read but for the written values, the new version and the change stamp.
 */
function savedRow(
  row: DemandRecordRow,
  values: BatchValues,
  version: number,
  change: { at: Date; by: string },
): DemandRecordRow {
  return { ...row, ...values, version, last_updated_at: change.at, last_updated_by: change.by };
}

/** The record change an audit row stands for, as the notifier reads earlier authors by it. */
const changeOf = (row: AuditRow): RecordChange => ({
  pid: row.pid,
  weekStart: row.week_start,
  field: row.field,
});

/** Equal attribute values; amounts compare at the column's 4 decimals. */
function sameAttribute(given: string | number, stored: string | number): boolean {
  if (typeof given === 'number' && typeof stored === 'number')
    return Math.round(given * 10_000) === Math.round(stored * 10_000);
  return given === stored;
}

export class DemandRecordService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly pageTokens: PageTokens,
    private readonly notifier?: Notifier,
  ) {}

  /** The planning policy in force; every planner reads it, so the grid can say what is required. */
  readPolicy(): Promise<PlanningPolicy> {
    return readPlanningPolicy(this.db);
  }

  /** An admin sets the planning policy for everyone (the route is admin-only). */
  savePolicy(scope: AccessScope, policy: PlanningPolicy): Promise<PlanningPolicy> {
    return savePlanningPolicy(this.db, policy, scope.userName);
  }

  /** A page of records in key order, serialized as the contract's DemandRecordPage. */
  async list(scope: AccessScope, query: ListDemandRecordsQuery): Promise<JsonText<DemandRecordPage>> {
    const { clientIds } = narrowToContext(scope, query.clientContext);
    const after = query.nextToken ? this.pageTokens.decode(query.nextToken) : undefined;
    // One extra row tells whether another page exists without a count query.
    const rows = await listDemandRecords(this.db, {
      filters: {
        clientIds,
        bu: query.bu,
        pf: query.pf,
        region: query.region,
        site: query.site,
        class: query.class,
        pid: query.pid,
        fromWeek: query.from ? weekStartOf(query.from) : undefined,
        toWeek: query.to ? weekStartOf(query.to) : undefined,
        search: query.search,
      },
      after,
      limit: query.limit + 1,
    });
    const hasMore = rows.length > query.limit;
    const page = hasMore ? rows.slice(0, query.limit) : rows;
    const last = page.at(-1);
    const nextToken =
      hasMore && last ? this.pageTokens.encode({ pid: last.pid, weekStart: last.week_start }) : null;
    // Written as text from the records' own JSON: a 1,000-record page is about a megabyte.
    return new JsonText(
      `{"items":[${page.map(recordJsonOf).join(',')}],"count":${page.length},"nextToken":${JSON.stringify(nextToken)}}`,
    );
  }

  async get(scope: AccessScope, key: Key): Promise<DemandRecord> {
    const row = await findDemandRecord(
      this.db,
      { pid: key.pid, weekStart: weekStartOf(key.timeSeriesSk) },
      scope,
    );
    if (!row) throw notFound(key);
    return toDemandRecord(row);
  }

  async create(scope: AccessScope, input: CreateDemandRecord): Promise<DemandRecord> {
    const key = { pid: input.PID, timeSeriesSk: input.Time_Series_sk };
    const weekStart = weekStartOf(input.Time_Series_sk);
    await writeTransaction(this.db, async (trx) => {
      const product = await this.findOrCreateProduct(trx, scope, input);
      if (await demandRecordExists(trx, { pid: input.PID, weekStart }))
        throw new AppError('CONFLICT', `Demand record ${key.pid} / ${key.timeSeriesSk} already exists`);
      const actualUnits = input.Act_Bkg_Units ?? null;
      const source = {
        ensemble_fcst_units: input.Ensemble_Fcst_Units ?? null,
        rev_pln_ovrd_percent: input.Rev_Pln_Ovrd_Percent ?? null,
        rev_pln_ovrd_units: input.Rev_Pln_Ovrd_Units ?? null,
        sop_pln_ovrd_percent: input.SOP_Pln_Ovrd_Percent ?? null,
        sop_pln_ovrd_units: input.SOP_Pln_Ovrd_Units ?? null,
      };
      const record: Insertable<DemandRecordsTable> = {
        pid: input.PID,
        week_start: weekStart,
        ...source,
        ...planColumns(source, product),
        act_bkg_units: actualUnits,
        act_bkg_cost: moneyOf(actualUnits, product.unit_cost),
        act_rev_dlrs: moneyOf(actualUnits, product.unit_price),
        naive_fcst_units: input['Naïve_Rev_Mfg_Fcst_Bk_Units'] ?? null,
        reason_code: input.Reason_Code ?? null,
        comments: input.Comments ?? null,
        last_updated_at: new Date(),
        last_updated_by: scope.userName,
      };
      assertStorable(record);
      await insertDemandRecord(trx, record);
    });
    return this.get(scope, key);
  }

  /**
   * One record's save in one transaction on one connection: the record is locked and read, the
   * people to tell are read, and the saved record is answered from what was written, not read
   * again. Under load every further statement outside the transaction waits its turn for a pool
   * connection, as long as a whole request does.
   */
  async update(scope: AccessScope, key: Key, body: UpdateDemandRecord): Promise<DemandRecord> {
    const { version, ...patch } = body;
    let authors: EarlierAuthor[] = [];
    const record = await writeTransaction(this.db, async (trx) => {
      const row = await findDemandRecord(
        trx,
        { pid: key.pid, weekStart: weekStartOf(key.timeSeriesSk) },
        { clientIds: scope.clientIds, forUpdate: true },
      );
      if (!row) throw notFound(key);
      if (version !== undefined && version !== row.version) {
        throw new AppError(
          'STALE',
          `Demand record ${key.pid} / ${key.timeSeriesSk} was changed by ${row.last_updated_by ?? 'someone else'} since you read it`,
          {
            current: toDemandRecord(row),
          },
        );
      }
      const prepared = prepareWrite(scope, row, patch, 'edit', await readPlanningPolicy(trx));
      if (!prepared) return toDemandRecord(row);
      if (this.notifier)
        authors = await this.notifier.authorsToTell(trx, scope, prepared.audit.map(changeOf));
      // Audit first, so the roll-up's shared totals rows stay locked only from the update to the commit.
      await insertAuditRows(trx, prepared.audit);
      const change = { at: new Date(), by: scope.userName };
      const [stored] = await updateDemandRecordsBulk(trx, [prepared.write], change);
      return toDemandRecord(savedRow(row, prepared.write.values, stored!.version, change));
    });
    await this.notifier?.tellAuthors(scope, authors);
    return record;
  }

  /**
   * Applies many updates in one transaction: all of them or none. A stale or unknown record
   * fails the whole batch, naming the records, so nothing is overwritten silently. When `signal`
   * aborts (the client went away) before the commit, the batch rolls back: a save nobody waits
   * for any more must not land minutes later over edits made since.
   */
  async batchUpdate(
    scope: AccessScope,
    batch: BatchUpdate,
    signal?: AbortSignal,
  ): Promise<{ updatedRecords: number; changedFields: number; items: DemandRecord[] }> {
    const byKey = new Map<string, BatchUpdate['updates'][number]>();
    for (const update of batch.updates) {
      const id = `${update.PID}|${weekStartOf(update.Time_Series_sk)}`;
      if (byKey.has(id))
        throw AppError.validation(`updates holds ${update.PID} / ${update.Time_Series_sk} twice`, 'updates');
      byKey.set(id, update);
    }
    let changedFieldCount = 0;
    let updatedRecords = 0;
    const touched: DemandRecord[] = [];
    const written: AuditRow[] = [];
    await writeTransaction(this.db, async (trx) => {
      const keys = [...byKey.values()].map((u) => ({ pid: u.PID, weekStart: weekStartOf(u.Time_Series_sk) }));
      const rows = await findDemandRecordsForUpdate(trx, keys, scope.clientIds);
      const policy = await readPlanningPolicy(trx);
      signal?.throwIfAborted();
      const rowsByKey = new Map(rows.map((r) => [`${r.pid}|${r.week_start}`, r]));
      const missing = [...byKey.keys()].filter((id) => !rowsByKey.has(id));
      if (missing.length > 0) {
        throw AppError.notFound(
          `Demand records not found: ${missing
            .slice(0, 5)
            .map((id) => id.replace('|', ' / '))
            .join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`,
        );
      }
      const stale = rows.filter((row) => {
        const version = byKey.get(`${row.pid}|${row.week_start}`)?.version;
        return version !== undefined && version !== row.version;
      });
      if (stale.length > 0) {
        throw new AppError(
          'STALE',
          `${stale.length} record(s) were changed by someone else since you read them: ${stale
            .slice(0, 5)
            .map((r) => `${r.pid} / ${r.week_start}`)
            .join(', ')}`,
          {
            current: stale.map(toDemandRecord),
          },
        );
      }
      const at = new Date();
      const writes: Array<NonNullable<ReturnType<typeof prepareWrite>>['write']> = [];
      const audit: AuditRow[] = [];
      for (const row of rows) {
        const {
          PID: _pid,
          Time_Series_sk: _sk,
          version: _version,
          ...patch
        } = byKey.get(`${row.pid}|${row.week_start}`)!;
        const prepared = prepareWrite(scope, row, patch, 'batch', policy);
        if (!prepared) continue;
        writes.push(prepared.write);
        audit.push(...prepared.audit);
        changedFieldCount += prepared.audit.length;
        updatedRecords += 1;
      }
      // Audit first: the update's roll-up locks totals rows that other planners' saves share,
      // so it runs last and holds them only until the commit.
      await insertAuditRows(trx, audit);
      const change = { at, by: scope.userName };
      const stored = await updateDemandRecordsBulk(trx, writes, change);
      // The rows stay locked, so each is as read unless this batch just rewrote it with `writes`.
      const versions = new Map(stored.map((r) => [`${r.pid}|${r.week_start}`, r.version]));
      const values = new Map(writes.map((w) => [`${w.pid}|${w.weekStart}`, w.values]));
      touched.push(
        ...rows.map((row) => {
          const key = `${row.pid}|${row.week_start}`;
          const version = versions.get(key);
          return toDemandRecord(
            version === undefined ? row : savedRow(row, values.get(key)!, version, change),
          );
        }),
      );
      signal?.throwIfAborted();
      written.push(...audit);
    });
    // Not awaited: telling earlier authors reads each record's audit history (hundreds of
    // milliseconds for 5,000 records), which the saved batch does not depend on. It logs its own
    // failures.
    void this.notifier?.overridesChanged(
      scope,
      written.map((row) => ({ pid: row.pid, weekStart: row.week_start, field: row.field })),
    );
    return { updatedRecords, changedFields: changedFieldCount, items: touched };
  }

  async remove(scope: AccessScope, key: Key): Promise<void> {
    await writeTransaction(this.db, async (trx) => {
      const weekStart = weekStartOf(key.timeSeriesSk);
      const row = await findDemandRecord(
        trx,
        { pid: key.pid, weekStart },
        { clientIds: scope.clientIds, forUpdate: true },
      );
      if (!row) throw notFound(key);
      await deleteDemandRecord(trx, { pid: key.pid, weekStart });
      await insertAuditRows(trx, [
        {
          client_id: row.client_id,
          pid: row.pid,
          week_start: row.week_start,
          field: '*',
          old_value: 'record',
          new_value: null,
          changed_by: scope.userName,
          source: 'delete',
        },
      ]);
    });
  }

  private async findOrCreateProduct(
    trx: Transaction<Database>,
    scope: AccessScope,
    input: CreateDemandRecord,
  ): Promise<{ unit_cost: number; unit_price: number }> {
    const product = await findProduct(trx, input.PID);
    const isVisible = product !== undefined && scope.clientIds.includes(product.client_id as never);
    if (product && isVisible) {
      const differing = PRODUCT_ATTRIBUTES.find(
        ([field, column]) => input[field] !== undefined && !sameAttribute(input[field], product[column]),
      );
      if (differing) {
        const [field] = differing;
        throw AppError.validation(
          `${field} differs from product ${input.PID}'s; leave it out or give the product's value`,
          field,
        );
      }
      return product;
    }
    // Creating products is an admin's job: a customer gets one answer for any PID that is not one
    // of its products, unknown or another client's, so it cannot probe which exist.
    if (!scope.isAdmin)
      throw AppError.notFound(
        `Product ${input.PID} is not one of your products; new products are created by an admin`,
      );
    // PIDs are unique across clients: another client's cannot be created again.
    const required = ['BU', 'PF', 'Class', 'Region', 'Site', 'Cost', 'Unit_Price'] as const;
    const missing = required.find((field) => input[field] === undefined);
    if (product || missing)
      throw AppError.notFound(
        `Product ${input.PID} was not found; a new product needs ${required.join(', ')}`,
      );
    const [clientId] = scope.clientIds.length === 1 ? scope.clientIds : ['internal' as const];
    await insertProduct(trx, {
      pid: input.PID,
      client_id: clientId!,
      bu: input.BU!,
      pf: input.PF!,
      class: input.Class!,
      region: input.Region!,
      site: input.Site!,
      entity_type: input.EntityType ?? 'Manufactured',
      unit_cost: input.Cost!,
      unit_price: input.Unit_Price!,
      rank: null,
    });
    return { unit_cost: input.Cost!, unit_price: input.Unit_Price! };
  }
}
