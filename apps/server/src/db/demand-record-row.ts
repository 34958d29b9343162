import {
  derivePlan,
  parseTimeSeriesSk,
  timeFieldsOf,
  toIsoDate,
  type DemandRecord,
  type EditableField,
  type ReasonCode,
} from '@ps/domain';
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, DemandRecordsTable, ProductsTable } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

export type DemandRecordRow = Selectable<DemandRecordsTable> &
  Pick<
    Selectable<ProductsTable>,
    | 'client_id'
    | 'bu'
    | 'pf'
    | 'class'
    | 'region'
    | 'site'
    | 'entity_type'
    | 'unit_cost'
    | 'unit_price'
    | 'rank'
  >;

/** Records joined with their product's attributes: the flat shape the API returns. */
export function selectRecords(db: Db) {
  return db
    .selectFrom('demand_records as r')
    .innerJoin('products as p', 'p.pid', 'r.pid')
    .selectAll('r')
    .select([
      'p.client_id',
      'p.bu',
      'p.pf',
      'p.class',
      'p.region',
      'p.site',
      'p.entity_type',
      'p.unit_cost',
      'p.unit_price',
      'p.rank',
    ]);
}

/** API field → column, for the fields a planner edits. */
export const EDITABLE_COLUMNS = {
  Rev_Pln_Ovrd_Percent: 'rev_pln_ovrd_percent',
  Rev_Pln_Ovrd_Units: 'rev_pln_ovrd_units',
  SOP_Pln_Ovrd_Percent: 'sop_pln_ovrd_percent',
  SOP_Pln_Ovrd_Units: 'sop_pln_ovrd_units',
  Reason_Code: 'reason_code',
  Comments: 'comments',
} as const satisfies Record<EditableField, keyof DemandRecordsTable>;

/** yyyymmdd → yyyy-mm-dd; callers validate the key first. */
export function weekStartOf(timeSeriesSk: string): string {
  const date = parseTimeSeriesSk(timeSeriesSk);
  if (!date) throw new Error(`Unvalidated Time_Series_sk ${timeSeriesSk}`);
  return toIsoDate(date);
}

export function toDemandRecord(row: DemandRecordRow): DemandRecord {
  const sunday = new Date(`${row.week_start}T00:00:00Z`);
  return {
    PID: row.pid,
    ...timeFieldsOf(sunday),
    BU: row.bu,
    PF: row.pf,
    Class: row.class,
    Region: row.region,
    Site: row.site,
    EntityType: row.entity_type,
    Rank: row.rank,
    Act_Bkg_Units: row.act_bkg_units,
    Act_Bkg_Cost: row.act_bkg_cost,
    Act_Rev_Dlrs: row.act_rev_dlrs,
    Naïve_Rev_Mfg_Fcst_Bk_Units: row.naive_fcst_units,
    Ensemble_Fcst_Units: row.ensemble_fcst_units,
    Rev_Pln_Ovrd_Percent: row.rev_pln_ovrd_percent,
    Rev_Pln_Ovrd_Units: row.rev_pln_ovrd_units,
    Prelim_Pln_Units: row.prelim_pln_units,
    Prelim_Pln_Cost: row.prelim_pln_cost,
    Prelim_Pln_Rev_Dlrs: row.prelim_pln_rev_dlrs,
    SOP_Pln_Ovrd_Percent: row.sop_pln_ovrd_percent,
    SOP_Pln_Ovrd_Units: row.sop_pln_ovrd_units,
    Final_Pln_Units: row.final_pln_units,
    Final_Bk_Pln_Cost: row.final_bk_pln_cost,
    Final_Pln_Rev_Dlrs: row.final_pln_rev_dlrs,
    Reason_Code: row.reason_code as ReasonCode | null,
    Comments: row.comments,
    Cost: row.unit_cost,
    Delta_Prelim_to_Final_Pln_Cost: row.delta_prelim_to_final_pln_cost,
    Delta_Prelim_to_Final_Pln_Units: row.delta_prelim_to_final_pln_units,
    Delta_Prelim_to_Final_Pln_Rev_Dlrs: row.delta_prelim_to_final_pln_rev_dlrs,
    P1_Pub_Pln_Units: row.p1_pub_pln_units,
    P1_Pub_Pln_Cost: row.p1_pub_pln_cost,
    P1_Pub_Pln_Rev_Dlrs: row.p1_pub_pln_rev_dlrs,
    P2_Pub_Pln_Units: row.p2_pub_pln_units,
    P2_Pub_Pln_Cost: row.p2_pub_pln_cost,
    P2_Pub_Pln_Rev_Dlrs: row.p2_pub_pln_rev_dlrs,
    last_updated_at: row.last_updated_at ? new Date(row.last_updated_at).toISOString() : null,
    last_updated_by: row.last_updated_by,
    version: row.version,
  };
}

type PlanSource = Pick<
  DemandRecordsTable,
  | 'ensemble_fcst_units'
  | 'rev_pln_ovrd_percent'
  | 'rev_pln_ovrd_units'
  | 'sop_pln_ovrd_percent'
  | 'sop_pln_ovrd_units'
>;

/** The stored plan columns that follow from a record's forecast and overrides (the plan chain). */
export function planColumns(
  source: PlanSource,
  product: { unit_cost: number; unit_price: number },
): Updateable<DemandRecordsTable> {
  const plan = derivePlan({
    ensembleUnits: source.ensemble_fcst_units,
    revOverridePercent: source.rev_pln_ovrd_percent,
    revOverrideUnits: source.rev_pln_ovrd_units,
    sopOverridePercent: source.sop_pln_ovrd_percent,
    sopOverrideUnits: source.sop_pln_ovrd_units,
    unitCost: product.unit_cost,
    unitPrice: product.unit_price,
  });
  return {
    prelim_pln_units: plan.prelimUnits,
    prelim_pln_cost: plan.prelimCost,
    prelim_pln_rev_dlrs: plan.prelimRevenue,
    final_pln_units: plan.finalUnits,
    final_bk_pln_cost: plan.finalCost,
    final_pln_rev_dlrs: plan.finalRevenue,
    delta_prelim_to_final_pln_units: plan.deltaUnits,
    delta_prelim_to_final_pln_cost: plan.deltaCost,
    delta_prelim_to_final_pln_rev_dlrs: plan.deltaRevenue,
  };
}
