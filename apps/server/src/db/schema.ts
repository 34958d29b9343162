import type { ColumnType, Generated } from 'kysely';
import type { QuarterTotals } from '@ps/domain';

/**
 * Table types for Kysely. NUMERIC and INT8 are parsed to numbers and DATE stays a yyyy-mm-dd
 * string (see database.ts), so these types say what queries really return.
 */
export type ProductsTable = {
  pid: string;
  client_id: string;
  bu: string;
  pf: string;
  class: string;
  region: string;
  site: string;
  entity_type: string;
  unit_cost: number;
  unit_price: number;
  /** 1 = the product with the highest yearly revenue within its client. */
  rank: number | null;
  created_at: Generated<Date>;
};

export type DemandRecordsTable = {
  pid: string;
  /** Sunday that starts the week; Time_Series_sk is this date as yyyymmdd. */
  week_start: string;
  act_bkg_units: number | null;
  act_bkg_cost: number | null;
  act_rev_dlrs: number | null;
  naive_fcst_units: number | null;
  ensemble_fcst_units: number | null;
  rev_pln_ovrd_percent: number | null;
  rev_pln_ovrd_units: number | null;
  prelim_pln_units: number | null;
  prelim_pln_cost: number | null;
  prelim_pln_rev_dlrs: number | null;
  sop_pln_ovrd_percent: number | null;
  sop_pln_ovrd_units: number | null;
  final_pln_units: number | null;
  final_bk_pln_cost: number | null;
  final_pln_rev_dlrs: number | null;
  delta_prelim_to_final_pln_units: number | null;
  delta_prelim_to_final_pln_cost: number | null;
  delta_prelim_to_final_pln_rev_dlrs: number | null;
  reason_code: string | null;
  comments: string | null;
  p1_pub_pln_units: number | null;
  p1_pub_pln_cost: number | null;
  p1_pub_pln_rev_dlrs: number | null;
  p2_pub_pln_units: number | null;
  p2_pub_pln_cost: number | null;
  p2_pub_pln_rev_dlrs: number | null;
  version: Generated<number>;
  last_updated_at: Date | null;
  last_updated_by: string | null;
  /** Generated: any actual or planned cost or revenue present and not zero (migration 0002). */
  has_data: ColumnType<boolean, never, never>;
};

/** Weekly actual bookings, longer than the planning window: what the forecaster fits on. */
export type SalesHistoryTable = {
  pid: string;
  week_start: string;
  units: number;
};

export type PlanVersionsTable = {
  id: Generated<number>;
  client_id: string;
  /** Cycle name, e.g. '2026-W47'. */
  cycle: string;
  published_at: ColumnType<Date, Date | string | undefined, never>;
  published_by: string;
  /** Filters that bounded the published scope; {} for everything the client owns. */
  scope: ColumnType<Record<string, unknown>, string, string>;
  record_count: number;
  final_units: number;
  final_cost: number;
  final_revenue: number;
  label: Generated<string>;
  /** Final plan totals by fiscal quarter at publish time (migration 0009). */
  quarters: ColumnType<QuarterTotals[], string | undefined, string>;
};

export type AuditLogTable = {
  id: Generated<number>;
  client_id: string;
  pid: string;
  week_start: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  changed_by: string;
  changed_at: ColumnType<Date, Date | string | undefined, never>;
  /** What made the change: edit, batch, spread, undo, import, forecast, publish. */
  source: string;
  /** Why beyond the source: the aggregate edit a spread applied, the save an undo reverted. */
  cause: ColumnType<string | null, string | null | undefined, string | null>;
};

/** Records a planner locked: aggregate edits leave them as they are (migration 0015). */
export type DemandRecordLocksTable = {
  pid: string;
  week_start: string;
  locked_by: string;
  locked_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

/** Who last overrode a record, apart from system rewrites; kept by a trigger on audit_log (0015). */
export type DemandRecordLastOverrideTable = {
  pid: string;
  week_start: string;
  overridden_by: string;
  overridden_at: Date;
  source: string;
};

export type InventoryParametersTable = {
  pid: string;
  lead_time_weeks: number | null;
  review_period_weeks: number | null;
  replenishment_frequency_weeks: number | null;
  service_level_target: number | null;
  safety_stock_units: number | null;
  override_oul_units: number | null;
  override_reason: string | null;
  override_comments: string | null;
  override_user: string | null;
  override_at: Date | null;
  updated_at: Generated<Date>;
};

export type ForecastRunStatus = 'running' | 'succeeded' | 'failed';

export type ForecastRunsTable = {
  id: Generated<number>;
  status: ForecastRunStatus;
  requested_by: string;
  /** The clients whose products the run forecasts. */
  client_ids: string[];
  total_products: Generated<number>;
  processed_products: Generated<number>;
  updated_records: Generated<number>;
  error: string | null;
  started_at: ColumnType<Date, Date | string | undefined, never>;
  finished_at: Date | null;
};

/** Each product's back-test accuracy from its latest forecast run (read by the control tower). */
export type ForecastAccuracyTable = {
  pid: string;
  run_id: number;
  /** What produced the ensemble, e.g. "median(ets,ces,dotm) on last 104". */
  model: string;
  demand_class: string;
  backtest_model: string;
  /** Percent; null when the hold-out had no demand to divide by. */
  mape: number | null;
  /** Percent of actual volume, 100·Σ(forecast − actual)/Σ|actual| over the hold-out; positive = over-forecast. */
  bias: number | null;
  history_weeks: number;
  computed_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

/**
 * Roll-up partial sums per client, business unit, family, region and week, kept exact by triggers
 * on demand_records and products (migration 0002); read with raw SQL in planning-grid.repository.ts.
 */
export type DemandWeekTotalsTable = {
  client_id: string;
  bu: string;
  pf: string;
  region: string;
  week_start: string;
  record_count: number;
  data_count: number;
};

/** Per product: records and time buckets, with and without data (trigger-maintained, migration 0002). */
export type DemandProductTotalsTable = {
  pid: string;
  record_count: number;
  data_count: number;
  month_groups: number;
  month_data_groups: number;
  quarter_groups: number;
  quarter_data_groups: number;
  year_groups: number;
  year_data_groups: number;
};

/** The embedded OIDC provider's stored models, one row per (model, id) (migration 0007). */
export type OidcProviderRecordsTable = {
  /** oidc-provider model name: Session, Interaction, Grant, AuthorizationCode, RefreshToken, … */
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  /** Session uid, for findByUid. */
  uid: string | null;
  user_code: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
};

/** Failed embedded-provider sign-ins per email within the current throttle window (migration 0007). */
export type SignInFailuresTable = {
  email: string;
  failures: number;
  window_ends_at: Date;
};

export type Database = {
  products: ProductsTable;
  demand_records: DemandRecordsTable;
  sales_history: SalesHistoryTable;
  plan_versions: PlanVersionsTable;
  audit_log: AuditLogTable;
  demand_record_locks: DemandRecordLocksTable;
  demand_record_last_override: DemandRecordLastOverrideTable;
  demand_week_totals: DemandWeekTotalsTable;
  demand_product_totals: DemandProductTotalsTable;
  inventory_parameters: InventoryParametersTable;
  forecast_runs: ForecastRunsTable;
  forecast_accuracy: ForecastAccuracyTable;
  oidc_provider_records: OidcProviderRecordsTable;
  sign_in_failures: SignInFailuresTable;
};
