import type { ColumnType, Generated } from 'kysely';
import type { ForecastMemberWeight, ForecastQuantiles, QuarterTotals } from '@ps/domain';

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
  /** Money sent with the history or derived from the prices in effect (migration 0050); null before. */
  revenue: ColumnType<number | null, number | null | undefined, number | null>;
  cost: ColumnType<number | null, number | null | undefined, number | null>;
};

/** A product's unit cost and price from a day on (migration 0050). */
export type ProductPricesTable = {
  pid: string;
  effective_from: string;
  unit_cost: number;
  unit_price: number;
};

/** The load log of admin bulk data loads (migration 0050). */
export type DataLoadsTable = {
  id: Generated<number>;
  entity: string;
  file_name: string;
  dry_run: boolean;
  status: 'running' | 'succeeded' | 'refused' | 'failed';
  loaded_by: string;
  loaded_by_id: string;
  started_at: ColumnType<Date, Date | string | undefined, never>;
  finished_at: Date | null;
  duration_ms: number | null;
  processed_rows: ColumnType<number, number | undefined, number>;
  total_bytes: ColumnType<number, number | undefined, number>;
  counts: ColumnType<unknown, string | null | undefined, string | null>;
  refusals: ColumnType<unknown, string | undefined, string>;
  error: string | null;
  steps: ColumnType<unknown, string | undefined, string>;
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
  /** Whether published_plan_rows holds this version's figures per product and week (migration 0067). */
  figures_kept: Generated<boolean>;
};

/**
 * A product-week's published figures from version `valid_from` until the client's version that
 * changed them (`valid_to`, null while current); `removed` says the product-week left the plan.
 */
export type PublishedPlanRowsTable = {
  client_id: string;
  pid: string;
  week_start: string;
  valid_from: number;
  valid_to: number | null;
  units: number;
  cost: number;
  revenue: number;
  removed: Generated<boolean>;
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
  /** The import that made the change (migration 0010); optional so older writers need not name it. */
  import_id?: number | null;
  /** Why beyond the source: the aggregate edit a spread applied, the save an undo reverted. */
  cause: ColumnType<string | null, string | null | undefined, string | null>;
};

/** A product's planner and notes, set by spreadsheet imports (migration 0010). */
export type ProductDetailsTable = {
  pid: string;
  planner_name: string | null;
  notes: string | null;
};

/** One spreadsheet import (migration 0010): who, which file, what it did. */
export type ImportsTable = {
  id: Generated<number>;
  file_name: string;
  imported_by: string;
  imported_at: ColumnType<Date, Date | string | undefined, never>;
  row_count: number;
  created_count: number;
  updated_count: number;
  failed_count: number;
  /** Migration 0030: imports run as background jobs. */
  status: 'running' | 'succeeded' | 'failed';
  imported_by_id: string | null;
  processed_rows: ColumnType<number, number | undefined, number>;
  unchanged_count: ColumnType<number, number | undefined, number>;
  error: string | null;
  finished_at: Date | null;
  /** The ImportOutcome answered when it succeeded. */
  outcome: ColumnType<unknown, string | null | undefined, string | null>;
  /** Milliseconds per step (read, validate, plan, writes). */
  steps: ColumnType<unknown, string | null | undefined, string | null>;
};

/** A record a running import updated, as it was before (0077): what undoing the import restores. */
export type ImportUndoRecordsTable = {
  import_id: number;
  pid: string;
  week_start: string;
  /** The record's row as JSON. */
  previous: ColumnType<unknown, string, string>;
};

/** A product whose place or details a running import changed, with their earlier values (0077). */
export type ImportUndoProductsTable = {
  import_id: number;
  pid: string;
  region: string | null;
  site: string | null;
  planner_name: string | null;
  notes: string | null;
};

/** Changes to product attributes (region, site, planner, notes), which are not per week (0010). */
export type ProductAuditLogTable = {
  id: Generated<number>;
  client_id: string;
  pid: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  changed_by: string;
  changed_at: ColumnType<Date, Date | string | undefined, never>;
  source: string;
  import_id: number | null;
};

/** One product at one stocking site: policy, demand statistics, order-up-to levels, override (0013). */
export type InventoryParametersTable = {
  pid: string;
  site: string;
  region: string;
  /** Share of the product's demand this site serves. */
  demand_share: number;
  lead_time_weeks: number;
  /** Standard deviation of the lead time, weeks (0021). */
  lead_time_sd_weeks: Generated<number>;
  review_period_weeks: number;
  replenishment_frequency_weeks: number;
  avg_demand: Generated<number>;
  std_demand: Generated<number>;
  demand_model: Generated<string>;
  oul_90: Generated<number>;
  oul_95: Generated<number>;
  oul_98: Generated<number>;
  recommended_oul: Generated<number>;
  /** Recommended OUL − μ(L+R), and the normal formula's at the same level (0071); null before a recompute. */
  safety_stock_units: number | null;
  safety_stock_normal_units: number | null;
  on_hand_units: Generated<number>;
  /** Over the projection horizon: receipts, final plan demand, and the plan demand stock cannot serve (shortfall). */
  sd_supply_units: Generated<number>;
  sd_demand_units: Generated<number>;
  sd_gap_units: Generated<number>;
  override_oul_units: number | null;
  override_percent: number | null;
  override_reason: string | null;
  override_comments: string | null;
  override_user: string | null;
  override_at: Date | null;
  version: Generated<number>;
  computed_at: Date | null;
  updated_at: Generated<Date>;
};

/** Simulated weekly stock of one product × site (0013). */
export type InventoryHistoryTable = {
  pid: string;
  site: string;
  week_start: string;
  demand_units: number;
  receipts_units: number;
  on_hand_units: number;
  lost_units: number;
  ordered_units: number;
};

/** A loaded count of a product × site's units on hand on a day (0064). */
export type InventoryPositionsTable = {
  pid: string;
  site: string;
  as_of: string;
  on_hand_units: number;
  loaded_at: Generated<Date>;
};

/** A loaded order line still to arrive at a product × site, or closed (0064). */
export type InventoryOpenOrdersTable = {
  order_id: string;
  pid: string;
  site: string;
  quantity: number;
  due_date: string;
  status: 'open' | 'closed';
  loaded_at: Generated<Date>;
};

/** Weekly sums per client and business unit of the history or of the projection (0013). */
export type InventoryWeekTotalsTable = {
  client_id: string;
  bu: string;
  week_start: string;
  kind: 'history' | 'projection';
  items: number;
  demand_units: number;
  supply_units: number;
  gap_units: number;
  lost_units: number;
  stockout_items: number;
  on_hand_value: number;
  cogs: number;
};

/** Where the projection's supply came from at the last recompute (0021): one row. */
export type InventoryProjectionSourceTable = {
  id: number;
  /** The optimisation run whose network plan supplied it; null: the order-up-to policy. */
  supply_run_id: number | null;
  /** Projection weeks the plan covered (the others came from the policy). */
  network_weeks: number;
  computed_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

export type InventoryAuditTable = {
  id: Generated<number>;
  client_id: string;
  pid: string;
  site: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  reason_code: string | null;
  comments: string | null;
  changed_by: string;
  changed_at: ColumnType<Date, Date | string | undefined, never>;
  source: string;
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
  /** Handed to the PostgreSQL job queue in chunks (migration 0024). */
  queued: Generated<boolean>;
  /** Who to notify when the run ends, whichever process ends it (migration 0024; null before). */
  requested_by_id: string | null;
  /** Weeks ahead every chunk forecasts, set before the chunks (migration 0085; null before). */
  horizon: number | null;
  /** The global member's step models to train before the chunks, and how many are trained. */
  training_steps: Generated<number>;
  trained_steps: Generated<number>;
};

/** The learned global member a run trained on all its products, read by each chunk (migration 0085). */
export type ForecastRunGlobalModelsTable = {
  run_id: number;
  /** `SerializedGlobalModels` of @ps/forecast. */
  models: ColumnType<unknown, string, never>;
};

/** One chunk of a forecast run's products, a job in the queue or a step in process (migration 0024). */
export type ForecastRunChunksTable = {
  run_id: number;
  chunk: number;
  pids: string[];
  /** Products of the chunk forecast so far in its current attempt. */
  processed: Generated<number>;
  updated_records: Generated<number>;
  /** Times a process started the chunk (more than one: a worker died or the chunk failed). */
  attempts: Generated<number>;
  /** The last attempt's error, reported with the run when the chunk gives up. */
  error: string | null;
  done_at: Date | null;
};

/** Each product's back-test accuracy from its latest forecast run (read by the control tower). */
export type ForecastAccuracyTable = {
  pid: string;
  run_id: number;
  /** What produced the ensemble, e.g. "weighted(naive,ets-log,ces) on last 156/all". */
  model: string;
  demand_class: string;
  backtest_model: string;
  /** Percent; null when the hold-out had no demand to divide by. */
  mape: number | null;
  /** Percent of actual volume, 100·Σ(forecast − actual)/Σ|actual| over the hold-out; positive = over-forecast. */
  bias: number | null;
  history_weeks: number;
  computed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The ensemble's members and weights (migration 0016); JSON text on write. */
  members: ColumnType<ForecastMemberWeight[], string | undefined, string>;
  /** The ensemble's quantiles of its first weeks (migration 0070); JSON text on write, null before. */
  quantiles: ColumnType<ForecastQuantiles | null, string | null | undefined, string | null>;
};

/**
 * Each slice's distinct comments and reason codes with the grid position (PID, chr(1), week) of
 * their first record, kept by triggers (migration 0033); read in planning-grid-annotations.repository.ts.
 */
export type DemandAnnotationDigestTable = {
  client_id: string;
  bu: string;
  pf: string;
  region: string;
  kind: 'comment' | 'code';
  value: string;
  first_pos: string;
};

/** The same per slice and period of each drill-down, kept by triggers (migration 0034; weeks since 0044). */
export type DemandAnnotationPeriodDigestTable = DemandAnnotationDigestTable & {
  drill_down: 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  period: string;
};

/**
 * Each client's business unit's distinct comments and reason codes per week (`period`, YYYY-MM-DD),
 * kept by triggers (migration 0046); read in planning-grid-annotations.repository.ts.
 */
export type DemandAnnotationUnitDigestTable = Omit<DemandAnnotationDigestTable, 'pf' | 'region'> & {
  period: string;
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
  /** Σ of the records' Ensemble_Fcst_Units at list price / unit cost, each to the cent (migration 0031). */
  ensemble_fcst_rev_dlrs: number;
  ensemble_fcst_cost: number;
};

/**
 * The week totals summed per slice and period of each drill-down above the week ('' for none,
 * 'YYYY-MM', 'YYYY-Qn', 'YYYY'), with the same columns, kept by triggers on demand_week_totals
 * (migration 0034); read with raw SQL in planning-grid.repository.ts.
 */
export type DemandSliceTotalsTable = {
  drill_down: 'none' | 'monthly' | 'quarterly' | 'yearly';
  client_id: string;
  bu: string;
  pf: string;
  region: string;
  period: string;
  record_count: number;
  data_count: number;
};

/** Records and time buckets (month, quarter, year groups), with and without data. */
type RecordGroupCounts = {
  record_count: number;
  data_count: number;
  month_groups: number;
  month_data_groups: number;
  quarter_groups: number;
  quarter_data_groups: number;
  year_groups: number;
  year_data_groups: number;
};

/** Per product: its record group counts (trigger-maintained, migration 0002). */
export type DemandProductTotalsTable = { pid: string } & RecordGroupCounts;

/** demand_product_totals summed per slice (migration 0036): what product-level pages count from. */
export type DemandSliceProductCountsTable = {
  client_id: string;
  bu: string;
  pf: string;
  region: string;
  products: number;
  data_products: number;
} & RecordGroupCounts;

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

/** A signed-in user's settings (spec §3 user settings), migration 0017. */
export type UserSettingsTable = {
  user_id: string;
  user_name: string;
  email: string | null;
  client_ids: string[];
  settings: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  updated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

/** A user's named view of the demand planning grid (migration 0073). */
export type SavedViewsTable = {
  id: Generated<number>;
  user_id: string;
  name: string;
  state: ColumnType<Record<string, unknown>, string, string>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

/** The admin's planning policy, one row (migration 0063). */
export type PlanningPolicyTable = {
  id: ColumnType<boolean, boolean | undefined, never>;
  require_override_reason: boolean;
  updated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  updated_by: string | null;
};

/** Units of a currency for one US dollar, valid from a date on (migration 0017). */
export type ExchangeRatesTable = {
  currency: string;
  valid_from: string;
  rate: number;
  updated_by: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

export type ExchangeRateChangesTable = {
  id: Generated<number>;
  currency: string;
  valid_from: string;
  old_rate: number | null;
  /** Null when the rate was removed. */
  new_rate: number | null;
  changed_by: string;
  changed_at: ColumnType<Date, Date | string | undefined, never>;
};

/** In-app notifications (spec §3 notification), migration 0017. */
export type NotificationsTable = {
  id: Generated<number>;
  user_id: string;
  kind: string;
  content: ColumnType<Record<string, unknown>, string, string>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  read_at: Date | null;
};

/** Notifications waiting for the user's next mail digest. */
export type EmailOutboxTable = {
  notification_id: number;
  user_id: string;
  email: string;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: string | null;
};

/** Network optimisation (migration 0014, docs/optimisation.md). */
export type NetworkPlantsTable = { id: Generated<number>; name: string; region: string };

export type NetworkPlantFamiliesTable = {
  plant_id: number;
  family: string;
  capacity_per_month: number;
  unit_cost: number;
};

export type NetworkDcsTable = {
  id: Generated<number>;
  name: string;
  region: string;
  throughput_per_month: number;
  fixed_cost_per_month: number;
  handling_cost_per_unit: number;
  decision: ColumnType<'auto' | 'open' | 'closed', 'auto' | 'open' | 'closed' | undefined>;
};

export type NetworkLanesTable = {
  id: Generated<number>;
  leg: 'inbound' | 'outbound';
  /** Inbound lanes only. */
  plant_id: number | null;
  dc_id: number;
  /** Outbound lanes only: the customer region served. */
  region: string | null;
  cost_per_unit: number;
  lead_time_days: number;
};

export type NetworkSettingsTable = { id: number; unmet_penalty_per_unit: number | null };

export type NetworkAuditTable = {
  id: Generated<number>;
  entity: string;
  entity_id: number;
  field: string;
  old_value: string | null;
  new_value: string | null;
  changed_by: string;
  changed_at: ColumnType<Date, Date | string | undefined, never>;
};

export type OptimisationScenariosTable = {
  id: Generated<number>;
  name: string;
  changes: ColumnType<unknown, string, string>;
  created_by: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

export type OptimisationRunsTable = {
  id: Generated<number>;
  scenario_id: number | null;
  scenario_name: string | null;
  status: 'running' | 'succeeded' | 'failed';
  requested_by: string;
  settings: ColumnType<unknown, string, string>;
  progress: ColumnType<unknown, string | undefined, string>;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  error: string | null;
  started_at: ColumnType<Date, Date | string | undefined, never>;
  finished_at: Date | null;
};

/** AI assistant requests per user and endpoint within the current window (migration 0012). */
export type AiRateLimitsTable = {
  user_id: string;
  endpoint: string;
  requests: number;
  window_ends_at: Date;
};

/**
 * The plan's view of the coming weeks when a forecast run or a publish happened (migration 0011):
 * element i of each array is the week i weeks after snapshot_week (lag i); null where no record.
 */
export type ForecastSnapshotsTable = {
  pid: string;
  snapshot_week: string;
  source: 'forecast' | 'publish' | 'history';
  taken_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The most frequent reason code of the product's overrides in the snapshot's weeks. */
  reason_code: string | null;
  /** The last actual known when the snapshot was taken: the naive forecast of every lag. */
  naive_units: number | null;
  stat_units: Array<number | null>;
  prelim_units: Array<number | null>;
  final_units: Array<number | null>;
};

/** The products each client's last exception check found in the queue (migration 0018). */
export type ExceptionQueueSeenTable = { client_id: string; pid: string };

/** Marketing's revenue and cost plan per BU, family, region and quarter, one set per cycle (0011). */
export type MarketingPlansTable = {
  cycle: string;
  client_id: string;
  bu: string;
  pf: string;
  region: string;
  quarter: string;
  revenue: number;
  cost: number;
};

/**
 * Each record with an override set, with the figures the summary reads of it, kept by triggers on
 * demand_records (migrations 0039, 0043).
 */
export type DemandOverriddenRecordsTable = {
  pid: string;
  week_start: ColumnType<string, string, never>;
  final_pln_rev_dlrs: number | null;
  ensemble_fcst_units: number | null;
  reason_code: string | null;
  last_updated_at: Date | null;
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

/** The rolling horizon's one row (migration 0047). */
export type PlanHorizonTable = {
  id: Generated<boolean>;
  last_rolled_week: ColumnType<string, string, string>;
  horizon_weeks: number;
  rolled_at: Generated<Date>;
  records_added: Generated<number>;
  rolling_to: string | null;
  rolling_since: Date | null;
};

export type CycleScheduleTable = {
  id: ColumnType<boolean, boolean | undefined, never>;
  is_enabled: boolean;
  frequency: string;
  weekday: number;
  run_time: string;
  time_zone: string;
  updated_by: string;
  updated_by_id: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

export type CycleRunsTable = {
  id: Generated<number>;
  trigger: string;
  requested_by: string;
  requested_by_id: string | null;
  status: string;
  started_at: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_at: Date | null;
  error: string | null;
};

export type CycleStepsTable = {
  id: Generated<string>;
  run_id: number;
  step: string;
  status: string;
  started_at: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_at: Date | null;
  progress: number | null;
  message: string | null;
  counts: ColumnType<Record<string, number>, string | undefined, string>;
};

export type Database = {
  products: ProductsTable;
  demand_records: DemandRecordsTable;
  sales_history: SalesHistoryTable;
  product_prices: ProductPricesTable;
  data_loads: DataLoadsTable;
  plan_versions: PlanVersionsTable;
  published_plan_rows: PublishedPlanRowsTable;
  audit_log: AuditLogTable;
  product_details: ProductDetailsTable;
  imports: ImportsTable;
  import_undo_records: ImportUndoRecordsTable;
  import_undo_products: ImportUndoProductsTable;
  product_audit_log: ProductAuditLogTable;
  demand_week_totals: DemandWeekTotalsTable;
  demand_product_totals: DemandProductTotalsTable;
  demand_slice_product_counts: DemandSliceProductCountsTable;
  demand_slice_totals: DemandSliceTotalsTable;
  demand_annotation_digest: DemandAnnotationDigestTable;
  demand_annotation_period_digest: DemandAnnotationPeriodDigestTable;
  demand_annotation_unit_digest: DemandAnnotationUnitDigestTable;
  inventory_parameters: InventoryParametersTable;
  inventory_history: InventoryHistoryTable;
  inventory_week_totals: InventoryWeekTotalsTable;
  inventory_audit: InventoryAuditTable;
  inventory_projection_source: InventoryProjectionSourceTable;
  inventory_positions: InventoryPositionsTable;
  inventory_open_orders: InventoryOpenOrdersTable;
  forecast_runs: ForecastRunsTable;
  forecast_run_chunks: ForecastRunChunksTable;
  forecast_run_global_models: ForecastRunGlobalModelsTable;
  forecast_accuracy: ForecastAccuracyTable;
  oidc_provider_records: OidcProviderRecordsTable;
  sign_in_failures: SignInFailuresTable;
  user_settings: UserSettingsTable;
  saved_views: SavedViewsTable;
  planning_policy: PlanningPolicyTable;
  exchange_rates: ExchangeRatesTable;
  exchange_rate_changes: ExchangeRateChangesTable;
  notifications: NotificationsTable;
  email_outbox: EmailOutboxTable;
  network_plants: NetworkPlantsTable;
  network_plant_families: NetworkPlantFamiliesTable;
  network_dcs: NetworkDcsTable;
  network_lanes: NetworkLanesTable;
  network_settings: NetworkSettingsTable;
  network_audit: NetworkAuditTable;
  optimisation_scenarios: OptimisationScenariosTable;
  optimisation_runs: OptimisationRunsTable;
  ai_rate_limits: AiRateLimitsTable;
  forecast_snapshots: ForecastSnapshotsTable;
  marketing_plans: MarketingPlansTable;
  demand_record_locks: DemandRecordLocksTable;
  demand_overridden_records: DemandOverriddenRecordsTable;
  demand_record_last_override: DemandRecordLastOverrideTable;
  exception_queue_seen: ExceptionQueueSeenTable;
  plan_horizon: PlanHorizonTable;
  cycle_schedule: CycleScheduleTable;
  cycle_runs: CycleRunsTable;
  cycle_steps: CycleStepsTable;
};
