import type { ColumnType, Generated } from 'kysely';
import type * as G from './schema.generated';
import type { ForecastMemberWeight, ForecastQuantiles, QuarterTotals } from '@ps/domain';

/** A generated table type with the columns this file knows better (JSON shapes, unions) replaced. */
type Refined<Base, Known> = Omit<Base, keyof Known> & Known;

/*
 * Table types for Kysely: every column of every table comes from schema.generated.ts, which
 * `npm run schema:dump` writes from the migrated database; the types below refine only what the
 * database cannot say (JSON shapes, string unions, insert and update types). NUMERIC and INT8 are
 * parsed to numbers and DATE stays a yyyy-mm-dd string (see database.ts), in both files.
 */

type ProductsColumns = {
  /** 1 = the product with the highest yearly revenue within its client. */
  rank: number | null;
};
export type ProductsTable = Refined<G.ProductsTable, ProductsColumns>;

type DemandRecordsColumns = {
  /** Sunday that starts the week; Time_Series_sk is this date as yyyymmdd. */
  week_start: string;
  /** Generated: any actual or planned cost or revenue present and not zero (migration 0002). */
  has_data: ColumnType<boolean, never, never>;
};
export type DemandRecordsTable = Refined<G.DemandRecordsTable, DemandRecordsColumns>;

/** Weekly actual bookings, longer than the planning window: what the forecaster fits on. */
type SalesHistoryColumns = {
  /** Money sent with the history or derived from the prices in effect (migration 0050); null before. */
  revenue: ColumnType<number | null, number | null | undefined, number | null>;
  cost: ColumnType<number | null, number | null | undefined, number | null>;
};
export type SalesHistoryTable = Refined<G.SalesHistoryTable, SalesHistoryColumns>;

/** A product's unit cost and price from a day on (migration 0050). */
export type ProductPricesTable = G.ProductPricesTable;

/** The load log of admin bulk data loads (migration 0050). */
type DataLoadsColumns = {
  status: 'running' | 'succeeded' | 'refused' | 'failed';
  started_at: ColumnType<Date, Date | string | undefined, never>;
  processed_rows: ColumnType<number, number | undefined, number>;
  total_bytes: ColumnType<number, number | undefined, number>;
  counts: ColumnType<unknown, string | null | undefined, string | null>;
  refusals: ColumnType<unknown, string | undefined, string>;
  steps: ColumnType<unknown, string | undefined, string>;
};
export type DataLoadsTable = Refined<G.DataLoadsTable, DataLoadsColumns>;

type PlanVersionsColumns = {
  /** Cycle name, e.g. '2026-W47'. */
  cycle: string;
  published_at: ColumnType<Date, Date | string | undefined, never>;
  /** Filters that bounded the published scope; {} for everything the client owns. */
  scope: ColumnType<Record<string, unknown>, string, string>;
  /** Final plan totals by fiscal quarter at publish time (migration 0009). */
  quarters: ColumnType<QuarterTotals[], string | undefined, string>;
  /** Whether published_plan_rows holds this version's figures per product and week (migration 0067). */
  figures_kept: Generated<boolean>;
};
export type PlanVersionsTable = Refined<G.PlanVersionsTable, PlanVersionsColumns>;

/**
 * A product-week's published figures from version `valid_from` until the client's version that
 * changed them (`valid_to`, null while current); `removed` says the product-week left the plan.
 */
export type PublishedPlanRowsTable = G.PublishedPlanRowsTable;

type AuditLogColumns = {
  changed_at: ColumnType<Date, Date | string | undefined, never>;
  /** What made the change: edit, batch, spread, undo, import, forecast, publish. */
  source: string;
  /** The import that made the change (migration 0010); optional so older writers need not name it. */
  import_id?: number | null;
  /** Why beyond the source: the aggregate edit a spread applied, the save an undo reverted. */
  cause: ColumnType<string | null, string | null | undefined, string | null>;
};
export type AuditLogTable = Refined<G.AuditLogTable, AuditLogColumns>;

/** A product's planner and notes, set by spreadsheet imports (migration 0010). */
export type ProductDetailsTable = G.ProductDetailsTable;

/** One spreadsheet import (migration 0010): who, which file, what it did. */
type ImportsColumns = {
  imported_at: ColumnType<Date, Date | string | undefined, never>;
  /** Migration 0030: imports run as background jobs. */
  status: 'running' | 'succeeded' | 'failed';
  processed_rows: ColumnType<number, number | undefined, number>;
  unchanged_count: ColumnType<number, number | undefined, number>;
  /** The ImportOutcome answered when it succeeded. */
  outcome: ColumnType<unknown, string | null | undefined, string | null>;
  /** Milliseconds per step (read, validate, plan, writes). */
  steps: ColumnType<unknown, string | null | undefined, string | null>;
};
export type ImportsTable = Refined<G.ImportsTable, ImportsColumns>;

/** A record a running import updated, as it was before (0077): what undoing the import restores. */
export type ImportUndoRecordsTable = Refined<
  G.ImportUndoRecordsTable,
  {
    /** The record's row as JSON. */
    previous: ColumnType<unknown, string, string>;
  }
>;

/** A product whose place or details a running import changed, with their earlier values (0077). */
export type ImportUndoProductsTable = G.ImportUndoProductsTable;

/** Changes to product attributes (region, site, planner, notes), which are not per week (0010). */
type ProductAuditLogColumns = {
  changed_at: ColumnType<Date, Date | string | undefined, never>;
};
export type ProductAuditLogTable = Refined<G.ProductAuditLogTable, ProductAuditLogColumns>;

/** One product at one stocking site: policy, demand statistics, order-up-to levels, override (0013). */
type InventoryParametersColumns = {
  /** Share of the product's demand this site serves. */
  demand_share: number;
  /** Standard deviation of the lead time, weeks (0021). */
  lead_time_sd_weeks: Generated<number>;
  /** Recommended OUL − μ(L+R), and the normal formula's at the same level (0071); null before a recompute. */
  safety_stock_units: number | null;
  /** Over the projection horizon: receipts, final plan demand, and the plan demand stock cannot serve (shortfall). */
  sd_supply_units: Generated<number>;
};
export type InventoryParametersTable = Refined<G.InventoryParametersTable, InventoryParametersColumns>;

/** Simulated weekly stock of one product × site (0013). */
export type InventoryHistoryTable = G.InventoryHistoryTable;

/** A loaded count of a product × site's units on hand on a day (0064). */
export type InventoryPositionsTable = G.InventoryPositionsTable;

/** A loaded order line still to arrive at a product × site, or closed (0064). */
type InventoryOpenOrdersColumns = {
  status: 'open' | 'closed';
};
export type InventoryOpenOrdersTable = Refined<G.InventoryOpenOrdersTable, InventoryOpenOrdersColumns>;

/** Weekly sums per client and business unit of the history or of the projection (0013). */
type InventoryWeekTotalsColumns = {
  kind: 'history' | 'projection';
};
export type InventoryWeekTotalsTable = Refined<G.InventoryWeekTotalsTable, InventoryWeekTotalsColumns>;

/** Where the projection's supply came from at the last recompute (0021): one row. */
type InventoryProjectionSourceColumns = {
  /** The optimisation run whose network plan supplied it; null: the order-up-to policy. */
  supply_run_id: number | null;
  /** Projection weeks the plan covered (the others came from the policy). */
  network_weeks: number;
  computed_at: ColumnType<Date, Date | string | undefined, Date | string>;
};
export type InventoryProjectionSourceTable = Refined<
  G.InventoryProjectionSourceTable,
  InventoryProjectionSourceColumns
>;

type InventoryAuditColumns = {
  changed_at: ColumnType<Date, Date | string | undefined, never>;
};
export type InventoryAuditTable = Refined<G.InventoryAuditTable, InventoryAuditColumns>;

export type ForecastRunStatus = 'running' | 'succeeded' | 'failed';

type ForecastRunsColumns = {
  status: ForecastRunStatus;
  /** The clients whose products the run forecasts. */
  client_ids: string[];
  started_at: ColumnType<Date, Date | string | undefined, never>;
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
export type ForecastRunGlobalModelsTable = Refined<
  G.ForecastRunGlobalModelsTable,
  {
    /** `SerializedGlobalModels` of @ps/forecast. */
    models: ColumnType<unknown, string, never>;
  }
>;
export type ForecastRunsTable = Refined<G.ForecastRunsTable, ForecastRunsColumns>;

/** One chunk of a forecast run's products, a job in the queue or a step in process (migration 0024). */
type ForecastRunChunksColumns = {
  /** Products of the chunk forecast so far in its current attempt. */
  processed: Generated<number>;
  /** Times a process started the chunk (more than one: a worker died or the chunk failed). */
  attempts: Generated<number>;
  /** The last attempt's error, reported with the run when the chunk gives up. */
  error: string | null;
};
export type ForecastRunChunksTable = Refined<G.ForecastRunChunksTable, ForecastRunChunksColumns>;

/** Each product's back-test accuracy from its latest forecast run (read by the control tower). */
type ForecastAccuracyColumns = {
  /** What produced the ensemble, e.g. "weighted(naive,ets-log,ces) on last 156/all". */
  model: string;
  /** Percent; null when the hold-out had no demand to divide by. */
  mape: number | null;
  /** Percent of actual volume, 100·Σ(forecast − actual)/Σ|actual| over the hold-out; positive = over-forecast. */
  bias: number | null;
  computed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The ensemble's members and weights (migration 0016); JSON text on write. */
  members: ColumnType<ForecastMemberWeight[], string | undefined, string>;
  /** The ensemble's quantiles of its first weeks (migration 0070); JSON text on write, null before. */
  quantiles: ColumnType<ForecastQuantiles | null, string | null | undefined, string | null>;
};
export type ForecastAccuracyTable = Refined<G.ForecastAccuracyTable, ForecastAccuracyColumns>;

/**
 * Roll-up partial sums per client, business unit, family, region and week, kept exact by triggers
 * on demand_records and products (migration 0002); read with raw SQL in planning-grid.repository.ts.
 */
type DemandWeekTotalsColumns = {
  /** Σ of the records' Ensemble_Fcst_Units at list price / unit cost, each to the cent (migration 0031). */
  ensemble_fcst_rev_dlrs: number;
  ensemble_fcst_cost: number;
};
export type DemandWeekTotalsTable = Refined<G.DemandWeekTotalsTable, DemandWeekTotalsColumns>;

/**
 * The week totals summed per slice and period of each drill-down above the week ('' for none,
 * 'YYYY-MM', 'YYYY-Qn', 'YYYY'), with the same columns, kept by triggers on demand_week_totals
 * (migration 0034); read with raw SQL in planning-grid.repository.ts.
 */
type DemandSliceTotalsColumns = {
  drill_down: 'none' | 'monthly' | 'quarterly' | 'yearly';
};
export type DemandSliceTotalsTable = Refined<G.DemandSliceTotalsTable, DemandSliceTotalsColumns>;

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
type DemandSliceProductCountsColumns = RecordGroupCounts;

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
export type DemandSliceProductCountsTable = Refined<
  G.DemandSliceProductCountsTable,
  DemandSliceProductCountsColumns
>;

/** Failed embedded-provider sign-ins per email within the current throttle window (migration 0007). */
export type SignInFailuresTable = G.SignInFailuresTable;

/** A signed-in user's settings (spec §3 user settings), migration 0017. */
type UserSettingsColumns = {
  settings: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  updated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
};
export type UserSettingsTable = Refined<G.UserSettingsTable, UserSettingsColumns>;

/** A user's named view of the demand planning grid (migration 0073). */
type SavedViewsColumns = {
  state: ColumnType<Record<string, unknown>, string, string>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
};
export type SavedViewsTable = Refined<G.SavedViewsTable, SavedViewsColumns>;

/** The admin's planning policy, one row (migration 0063). */
type PlanningPolicyColumns = {
  id: ColumnType<boolean, boolean | undefined, never>;
  require_override_reason: boolean;
  updated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
};
export type PlanningPolicyTable = Refined<G.PlanningPolicyTable, PlanningPolicyColumns>;

/** Units of a currency for one US dollar, valid from a date on (migration 0017). */
type ExchangeRatesColumns = {
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
};
export type ExchangeRatesTable = Refined<G.ExchangeRatesTable, ExchangeRatesColumns>;

type ExchangeRateChangesColumns = {
  /** Null when the rate was removed. */
  new_rate: number | null;
  changed_at: ColumnType<Date, Date | string | undefined, never>;
};
export type ExchangeRateChangesTable = Refined<G.ExchangeRateChangesTable, ExchangeRateChangesColumns>;

/** In-app notifications (spec §3 notification), migration 0017. */
type NotificationsColumns = {
  content: ColumnType<Record<string, unknown>, string, string>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
};
export type NotificationsTable = Refined<G.NotificationsTable, NotificationsColumns>;

/** Notifications waiting for the user's next mail digest. */
type EmailOutboxColumns = {
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
};
export type EmailOutboxTable = Refined<G.EmailOutboxTable, EmailOutboxColumns>;

/** Network optimisation (migration 0014, docs/optimisation.md). */
export type NetworkPlantsTable = { id: Generated<number>; name: string; region: string };

export type NetworkPlantFamiliesTable = G.NetworkPlantFamiliesTable;

type NetworkDcsColumns = {
  decision: ColumnType<'auto' | 'open' | 'closed', 'auto' | 'open' | 'closed' | undefined>;
};
export type NetworkDcsTable = Refined<G.NetworkDcsTable, NetworkDcsColumns>;

type NetworkLanesColumns = {
  leg: 'inbound' | 'outbound';
  /** Inbound lanes only. */
  plant_id: number | null;
  /** Outbound lanes only: the customer region served. */
  region: string | null;
};
export type NetworkLanesTable = Refined<G.NetworkLanesTable, NetworkLanesColumns>;

export type NetworkSettingsTable = { id: number; unmet_penalty_per_unit: number | null };

type NetworkAuditColumns = {
  changed_at: ColumnType<Date, Date | string | undefined, never>;
};
export type NetworkAuditTable = Refined<G.NetworkAuditTable, NetworkAuditColumns>;

type OptimisationScenariosColumns = {
  changes: ColumnType<unknown, string, string>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
};
export type OptimisationScenariosTable = Refined<G.OptimisationScenariosTable, OptimisationScenariosColumns>;

type OptimisationRunsColumns = {
  status: 'running' | 'succeeded' | 'failed';
  settings: ColumnType<unknown, string, string>;
  progress: ColumnType<unknown, string | undefined, string>;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  started_at: ColumnType<Date, Date | string | undefined, never>;
};
export type OptimisationRunsTable = Refined<G.OptimisationRunsTable, OptimisationRunsColumns>;

/** AI assistant requests per user and endpoint within the current window (migration 0012). */
export type AiRateLimitsTable = G.AiRateLimitsTable;

/**
 * The plan's view of the coming weeks when a forecast run or a publish happened (migration 0011):
 * element i of each array is the week i weeks after snapshot_week (lag i); null where no record.
 */
type ForecastSnapshotsColumns = {
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
export type ForecastSnapshotsTable = Refined<G.ForecastSnapshotsTable, ForecastSnapshotsColumns>;

/** The products each client's last exception check found in the queue (migration 0018). */
export type ExceptionQueueSeenTable = { client_id: string; pid: string };

/** Marketing's revenue and cost plan per BU, family, region and quarter, one set per cycle (0011). */
export type MarketingPlansTable = G.MarketingPlansTable;

/**
 * Each record with an override set, with the figures the summary reads of it, kept by triggers on
 * demand_records (migrations 0039, 0043).
 */
type DemandOverriddenRecordsColumns = {
  week_start: ColumnType<string, string, never>;
};
export type DemandOverriddenRecordsTable = Refined<
  G.DemandOverriddenRecordsTable,
  DemandOverriddenRecordsColumns
>;

/** Records a planner locked: aggregate edits leave them as they are (migration 0015). */
type DemandRecordLocksColumns = {
  locked_at: ColumnType<Date, Date | string | undefined, Date | string>;
};
export type DemandRecordLocksTable = Refined<G.DemandRecordLocksTable, DemandRecordLocksColumns>;

/** Who last overrode a record, apart from system rewrites; kept by a trigger on audit_log (0015). */
export type DemandRecordLastOverrideTable = G.DemandRecordLastOverrideTable;

/** The rolling horizon's one row (migration 0047). */
type PlanHorizonColumns = {
  last_rolled_week: ColumnType<string, string, string>;
};
export type PlanHorizonTable = Refined<G.PlanHorizonTable, PlanHorizonColumns>;

type CycleScheduleColumns = {
  id: ColumnType<boolean, boolean | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
};
export type CycleScheduleTable = Refined<G.CycleScheduleTable, CycleScheduleColumns>;

type CycleRunsColumns = {
  started_at: ColumnType<Date, Date | string | undefined, Date | string>;
};
export type CycleRunsTable = Refined<G.CycleRunsTable, CycleRunsColumns>;

type CycleStepsColumns = {
  id: Generated<string>;
  started_at: ColumnType<Date, Date | string | undefined, Date | string>;
  counts: ColumnType<Record<string, number>, string | undefined, string>;
};
export type CycleStepsTable = Refined<G.CycleStepsTable, CycleStepsColumns>;

export type Database = Omit<G.GeneratedDatabase, keyof KnownTables> & KnownTables;

/** The tables whose columns schema.ts refines. */
type KnownTables = {
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
