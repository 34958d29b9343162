import type { DemandRecord } from './demand-record';

/**
 * The demand record's fields, each once: every list of fields elsewhere (editable, summed, plan
 * outputs, money and percent sets, column lists of the writers, export and grid headers) is
 * derived from this table. Adding a field means a row here and a migration (migrations keep
 * their own frozen copy of the columns).
 *
 * - `table`: where the value is stored; `week` fields are computed from demand_records.week_start.
 * - `sqlType`: the column's type as unnest arrays cast it (numeric(…) → numeric, integer → int4).
 * - `kind`: how the value reads; `units` whole units, `forecast` statistical units with decimals.
 * - `summed`: added up in roll-ups; `planOutput`: derived by the plan chain (plan-chain.ts).
 * - `basis`: for money, whether it is valued at unit cost or unit price.
 * - `label`: the grid's column header; the API name is the CSV header.
 */
export type FieldKind =
  'text' | 'week' | 'rank' | 'units' | 'forecast' | 'percent' | 'money' | 'reason' | 'timestamp' | 'version';
export type FieldTable = 'demand_records' | 'products' | 'week';
export type SqlArrayType = 'text' | 'date' | 'float8' | 'numeric' | 'int4' | 'timestamptz';
export type MoneyBasis = 'cost' | 'revenue';

export type FieldSpec = {
  readonly field: keyof DemandRecord;
  readonly table: FieldTable;
  /** Column in `table`; null for the week fields. */
  readonly column: string | null;
  readonly sqlType: SqlArrayType | null;
  readonly kind: FieldKind;
  readonly editable: boolean;
  readonly summed: boolean;
  readonly planOutput: boolean;
  readonly basis: MoneyBasis | null;
  readonly label: string;
};

type Defaulted = 'editable' | 'summed' | 'planOutput' | 'basis';
const DEFAULTS = { editable: false, summed: false, planOutput: false, basis: null } as const;

/** Fills in the flags a row leaves out (all false, no money basis), keeping the row's literal types. */
function spec<const S extends Omit<FieldSpec, Defaulted> & Partial<Pick<FieldSpec, Defaulted>>>(
  row: S,
): Omit<typeof DEFAULTS, keyof S> & S {
  return { ...DEFAULTS, ...row };
}

const week = <F extends keyof DemandRecord>(field: F, label: string) =>
  spec({ field, table: 'week', column: null, sqlType: null, kind: 'week', label });
const product = <F extends keyof DemandRecord, C extends string>(field: F, column: C, label: string) =>
  spec({ field, table: 'products', column, sqlType: 'text', kind: 'text', label });

/** In the order of the spec's field list (§3), which is also the CSV's column order. */
export const DEMAND_RECORD_FIELDS = [
  spec({
    field: 'PID',
    table: 'demand_records',
    column: 'pid',
    sqlType: 'text',
    kind: 'text',
    label: 'Product ID',
  }),
  week('Time_Series_sk', 'Week Key'),
  product('BU', 'bu', 'Business Unit'),
  product('PF', 'pf', 'Product Family'),
  product('Class', 'class', 'Class'),
  product('Region', 'region', 'Region'),
  product('Site', 'site', 'Site'),
  product('EntityType', 'entity_type', 'Entity Type'),
  week('Month_Key', 'Month'),
  week('Week_Key', 'Week'),
  week('Fiscal_Quarter', 'Fiscal Quarter'),
  week('Date', 'Week Of'),
  week('Time_Series', 'Week Start'),
  spec({ field: 'Rank', table: 'products', column: 'rank', sqlType: 'int4', kind: 'rank', label: 'Rank' }),
  spec({
    field: 'Act_Bkg_Units',
    table: 'demand_records',
    column: 'act_bkg_units',
    sqlType: 'float8',
    kind: 'units',
    summed: true,
    label: 'Actual Units',
  }),
  spec({
    field: 'Act_Bkg_Cost',
    table: 'demand_records',
    column: 'act_bkg_cost',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'cost',
    summed: true,
    label: 'Actual Cost',
  }),
  spec({
    field: 'Act_Rev_Dlrs',
    table: 'demand_records',
    column: 'act_rev_dlrs',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'revenue',
    summed: true,
    label: 'Actual Revenue',
  }),
  spec({
    field: 'Naïve_Rev_Mfg_Fcst_Bk_Units',
    table: 'demand_records',
    column: 'naive_fcst_units',
    sqlType: 'float8',
    kind: 'forecast',
    summed: true,
    label: 'Naïve Forecast Units',
  }),
  spec({
    field: 'Ensemble_Fcst_Units',
    table: 'demand_records',
    column: 'ensemble_fcst_units',
    sqlType: 'float8',
    kind: 'forecast',
    summed: true,
    label: 'Ensemble Forecast Units',
  }),
  spec({
    field: 'Rev_Pln_Ovrd_Percent',
    table: 'demand_records',
    column: 'rev_pln_ovrd_percent',
    sqlType: 'numeric',
    kind: 'percent',
    editable: true,
    label: 'Rev Plan Override %',
  }),
  spec({
    field: 'Rev_Pln_Ovrd_Units',
    table: 'demand_records',
    column: 'rev_pln_ovrd_units',
    sqlType: 'int4',
    kind: 'units',
    editable: true,
    summed: true,
    label: 'Rev Plan Override Units',
  }),
  spec({
    field: 'Prelim_Pln_Units',
    table: 'demand_records',
    column: 'prelim_pln_units',
    sqlType: 'int4',
    kind: 'units',
    summed: true,
    planOutput: true,
    label: 'Prelim Plan Units',
  }),
  spec({
    field: 'Prelim_Pln_Cost',
    table: 'demand_records',
    column: 'prelim_pln_cost',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'cost',
    summed: true,
    planOutput: true,
    label: 'Prelim Plan Cost',
  }),
  spec({
    field: 'Prelim_Pln_Rev_Dlrs',
    table: 'demand_records',
    column: 'prelim_pln_rev_dlrs',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'revenue',
    summed: true,
    planOutput: true,
    label: 'Prelim Plan Revenue',
  }),
  spec({
    field: 'SOP_Pln_Ovrd_Percent',
    table: 'demand_records',
    column: 'sop_pln_ovrd_percent',
    sqlType: 'numeric',
    kind: 'percent',
    editable: true,
    label: 'S&OP Plan Override %',
  }),
  spec({
    field: 'SOP_Pln_Ovrd_Units',
    table: 'demand_records',
    column: 'sop_pln_ovrd_units',
    sqlType: 'int4',
    kind: 'units',
    editable: true,
    summed: true,
    label: 'S&OP Plan Override Units',
  }),
  spec({
    field: 'Final_Pln_Units',
    table: 'demand_records',
    column: 'final_pln_units',
    sqlType: 'int4',
    kind: 'units',
    summed: true,
    planOutput: true,
    label: 'Final Plan Units',
  }),
  spec({
    field: 'Final_Bk_Pln_Cost',
    table: 'demand_records',
    column: 'final_bk_pln_cost',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'cost',
    summed: true,
    planOutput: true,
    label: 'Final Plan Cost',
  }),
  spec({
    field: 'Final_Pln_Rev_Dlrs',
    table: 'demand_records',
    column: 'final_pln_rev_dlrs',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'revenue',
    summed: true,
    planOutput: true,
    label: 'Final Plan Revenue',
  }),
  spec({
    field: 'Reason_Code',
    table: 'demand_records',
    column: 'reason_code',
    sqlType: 'text',
    kind: 'reason',
    editable: true,
    label: 'Reason Code',
  }),
  spec({
    field: 'Comments',
    table: 'demand_records',
    column: 'comments',
    sqlType: 'text',
    kind: 'text',
    editable: true,
    label: 'Comments',
  }),
  spec({
    field: 'Cost',
    table: 'products',
    column: 'unit_cost',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'cost',
    label: 'Unit Cost',
  }),
  spec({
    field: 'Delta_Prelim_to_Final_Pln_Cost',
    table: 'demand_records',
    column: 'delta_prelim_to_final_pln_cost',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'cost',
    summed: true,
    planOutput: true,
    label: 'Δ Prelim→Final Cost',
  }),
  spec({
    field: 'Delta_Prelim_to_Final_Pln_Units',
    table: 'demand_records',
    column: 'delta_prelim_to_final_pln_units',
    sqlType: 'int4',
    kind: 'units',
    summed: true,
    planOutput: true,
    label: 'Δ Prelim→Final Units',
  }),
  spec({
    field: 'Delta_Prelim_to_Final_Pln_Rev_Dlrs',
    table: 'demand_records',
    column: 'delta_prelim_to_final_pln_rev_dlrs',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'revenue',
    summed: true,
    planOutput: true,
    label: 'Δ Prelim→Final Revenue',
  }),
  spec({
    field: 'P1_Pub_Pln_Units',
    table: 'demand_records',
    column: 'p1_pub_pln_units',
    sqlType: 'int4',
    kind: 'units',
    summed: true,
    label: 'P1 Published Units',
  }),
  spec({
    field: 'P1_Pub_Pln_Cost',
    table: 'demand_records',
    column: 'p1_pub_pln_cost',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'cost',
    summed: true,
    label: 'P1 Published Cost',
  }),
  spec({
    field: 'P1_Pub_Pln_Rev_Dlrs',
    table: 'demand_records',
    column: 'p1_pub_pln_rev_dlrs',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'revenue',
    summed: true,
    label: 'P1 Published Revenue',
  }),
  spec({
    field: 'P2_Pub_Pln_Units',
    table: 'demand_records',
    column: 'p2_pub_pln_units',
    sqlType: 'int4',
    kind: 'units',
    summed: true,
    label: 'P2 Published Units',
  }),
  spec({
    field: 'P2_Pub_Pln_Cost',
    table: 'demand_records',
    column: 'p2_pub_pln_cost',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'cost',
    summed: true,
    label: 'P2 Published Cost',
  }),
  spec({
    field: 'P2_Pub_Pln_Rev_Dlrs',
    table: 'demand_records',
    column: 'p2_pub_pln_rev_dlrs',
    sqlType: 'numeric',
    kind: 'money',
    basis: 'revenue',
    summed: true,
    label: 'P2 Published Revenue',
  }),
  spec({
    field: 'last_updated_at',
    table: 'demand_records',
    column: 'last_updated_at',
    sqlType: 'timestamptz',
    kind: 'timestamp',
    label: 'Last Updated',
  }),
  spec({
    field: 'last_updated_by',
    table: 'demand_records',
    column: 'last_updated_by',
    sqlType: 'text',
    kind: 'text',
    label: 'Updated By',
  }),
  spec({
    field: 'version',
    table: 'demand_records',
    column: 'version',
    sqlType: 'int4',
    kind: 'version',
    label: 'Version',
  }),
] as const satisfies ReadonlyArray<FieldSpec>;

type Catalogue = (typeof DEMAND_RECORD_FIELDS)[number];
type FieldWhere<Condition> = Extract<Catalogue, Condition>['field'];
/** The catalogue's column for an API field (a literal type, so mapped types keep it exact). */
export type ColumnOf<F extends Catalogue['field']> = Extract<Catalogue, { field: F }>['column'];
/** The columns the catalogue places in a table. */
export type ColumnsIn<T extends FieldTable> = NonNullable<Extract<Catalogue, { table: T }>['column']>;

const fieldsWhere = <F extends keyof DemandRecord>(test: (spec: Catalogue) => boolean): readonly F[] =>
  DEMAND_RECORD_FIELDS.filter(test).map((spec) => spec.field as F);

export type EditableField = FieldWhere<{ editable: true }>;
/** The only fields a planner may change (spec §5); everything else is derived or imported. */
export const EDITABLE_FIELDS = fieldsWhere<EditableField>((s) => s.editable);

export type SummedField = FieldWhere<{ summed: true }>;
/** The numeric fields a roll-up sums, in record order. */
export const SUMMED_FIELDS = fieldsWhere<SummedField>((s) => s.summed);

export type PlanOutputField = FieldWhere<{ planOutput: true }>;
/** The fields the plan chain derives from the forecast, the overrides and the product's prices. */
export const PLAN_OUTPUT_FIELDS = fieldsWhere<PlanOutputField>((s) => s.planOutput);

export type ForecastField = FieldWhere<{ kind: 'forecast' }>;
/** The statistical forecasts a forecast run writes. */
export const FORECAST_FIELDS = fieldsWhere<ForecastField>((s) => s.kind === 'forecast');

export type MoneyField = FieldWhere<{ kind: 'money' }>;
export const MONEY_FIELDS = fieldsWhere<MoneyField>((s) => s.kind === 'money');
export type PercentField = FieldWhere<{ kind: 'percent' }>;
export const PERCENT_FIELDS = fieldsWhere<PercentField>((s) => s.kind === 'percent');

const SPEC_BY_FIELD = new Map<string, FieldSpec>(DEMAND_RECORD_FIELDS.map((s) => [s.field, s]));

/** The catalogue row of an API field name; undefined for names that are not record fields. */
export const fieldSpecOf = (field: string): FieldSpec | undefined => SPEC_BY_FIELD.get(field);

/** A record field's column header; other names (group keys, counts) read as themselves. */
export const fieldLabel = (field: string): string => SPEC_BY_FIELD.get(field)?.label ?? field;
