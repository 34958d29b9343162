import { DEMAND_RECORD_FIELDS, type FieldSpec } from '@ps/domain';
import { ENSEMBLE_VALUES, ensembleValue } from '../db/ensemble-values';
import { overriddenSql, overrideWeightSql, periodSql } from './rules-sql';

/**
 * The read model: every table kept from demand_records for the grid's speed, declared once. Each
 * declaration says what the table is computed from (`source`), its grain, its measures and how each
 * combines, and which record columns it reads. From it come the rows the table must hold (the
 * rebuild the invariant test compares it with) and the rebuild of a key set that bulkWrite runs.
 * The records' triggers (migrations from 0002 on) keep the same rows for single-statement writes.
 * Comments and reason codes are not kept: a grid page reads its cells' notes from the records
 * (ADR 0016).
 */

/** How a measure combines the source rows of one key. */
export type Combine =
  /** How many source rows (that meet `filter`). */
  | 'count'
  /** How many distinct values of `of`. */
  | 'distinct count'
  /** How many rows have a value of `of`. */
  | 'count of values'
  | 'sum'
  /** Largest and smallest value. */
  | 'max'
  | 'min'
  /** The value of the key's one row (the grain is the source's own key). */
  | 'own';

export type Measure = {
  readonly column: string;
  readonly combine: Combine;
  /** SQL over the source's aliases; '*' for a count of rows. */
  readonly of: string;
  readonly filter?: string;
  /** The column's SQL type when a generated migration adds it (by default: counts bigint, sums numeric). */
  readonly type?: string;
};

/**
 * A table kept by a generated difference trigger (generate-sql.ts): the trigger function `fn`
 * runs from the insert, update and delete triggers `<trigger>_<event>` on the source's first
 * table, whose rows are paired by `key` on update.
 */
export type Differences = {
  readonly fn: string;
  readonly trigger: string;
  readonly key: readonly string[];
  /**
   * The source columns an update is compared on (default: the whole row): a pair equal in these
   * is left out of the differences (its later latest values, if any, are moved forward alone).
   */
  readonly compare?: readonly string[];
  /**
   * The measure that counts a key's source rows: a key whose count falls to zero is deleted. Left
   * out, emptied keys keep a row of zeros (the table's `ignoredRows` says which).
   */
  readonly rowCount?: string;
};

export type GrainColumn = { readonly column: string; readonly of: string };

type RecordsWith = {
  /**
   * Set when only records with one of these columns set (not null) give the table rows (a note,
   * an override, an actual): a record inserted with all of them null leaves it as it is.
   */
  readonly recordsWith?: readonly string[];
};

/** A kept table whose rows are its source grouped by its grain. */
export type GroupedTable = {
  readonly name: string;
  readonly source: string;
  readonly where?: string;
  readonly grain: readonly GrainColumn[];
  readonly measures: readonly Measure[];
  /** Record columns whose change can change its rows (any row inserted or deleted does too). */
  readonly reads: readonly string[];
  /** Who keeps it on each write: the records' triggers, or a trigger on the table it is built from. */
  readonly keptBy: string;
  /** Kept rows the table may hold beyond its rebuild (rows emptied by differences), left out of comparisons. */
  readonly ignoredRows?: string;
  /** Set when its difference trigger and rebuild function are generated (npm run read-model:generate). */
  readonly differences?: Differences;
} & RecordsWith;

/** A kept table rebuilt by a function of its own (its rows are not a plain grouping). */
export type RebuiltTable = {
  readonly name: string;
  readonly source: string;
  readonly grain: readonly string[];
  readonly reads: readonly string[];
  readonly keptBy: string;
  /** Rebuilds the whole table in place. */
  readonly rebuild: string;
  /** Kept rows that are not expected to equal the rebuild (stale marks, say). */
  readonly ignoredRows?: string;
} & RecordsWith;

export type KeptTable = GroupedTable | RebuiltTable;

export const isGrouped = (table: KeptTable): table is GroupedTable => 'measures' in table;

/** A catalogue's record columns that a set of its rows names (the rows must be columns of demand_records). */
function recordColumns(catalogue: readonly FieldSpec[], test: (spec: FieldSpec) => boolean): string[] {
  return catalogue.filter(test).map((spec) => {
    if (spec.table !== 'demand_records' || spec.column === null) {
      throw new Error(`${spec.field} is not a column of demand_records`);
    }
    return spec.column;
  });
}

/**
 * How many products `note_product_extremes` refreshes at once; more are marked stale for the
 * refresher. The database functions hold the same number (migrations may not import it).
 */
export const EXTREMES_REFRESHED_AT_ONCE = 32;

/**
 * The read model of a field catalogue: the kept tables, their measures taken from the catalogue's
 * summed and percent fields. The app's is `readModelOf(DEMAND_RECORD_FIELDS)` (the exports below);
 * the generator's test declares one with a field more.
 */
export function readModelOf(catalogue: readonly FieldSpec[]) {
  const SUMMED = recordColumns(catalogue, (s) => s.summed);
  const PERCENTS = recordColumns(catalogue, (s) => s.kind === 'percent');
  const SLICE = ['client_id', 'bu', 'pf', 'region'] as const;
  const PUBLISHED = SUMMED.filter((c) => /^p[12]_pub_/.test(c));
  /** The columns has_data (a generated column of demand_records) reads: any non-zero cost or revenue. */
  const HAS_DATA_INPUTS = [
    'act_bkg_cost',
    'act_rev_dlrs',
    'prelim_pln_cost',
    'prelim_pln_rev_dlrs',
    'final_bk_pln_cost',
    'final_pln_rev_dlrs',
  ];
  const OVERRIDES = [
    'rev_pln_ovrd_percent',
    'rev_pln_ovrd_units',
    'sop_pln_ovrd_percent',
    'sop_pln_ovrd_units',
  ];

  /** A weighted percent's two kept sums: `rev_pln_ovrd_percent` → rev_pct_wsum, rev_pct_weight. */
  const weightedColumns = (percent: string) => {
    const prefix = percent.replace('_pln_ovrd_percent', '_pct');
    return { sum: `${prefix}_wsum`, weight: `${prefix}_weight` };
  };

  const RECORDS_OF_PRODUCTS = 'demand_records r join products p on p.pid = r.pid';

  /** The week totals' measures: one per summed field and its count, the weighted percents, rank. */
  const WEEK_MEASURES: readonly Measure[] = [
    { column: 'record_count', combine: 'count', of: '*' },
    { column: 'data_count', combine: 'count', of: '*', filter: 'r.has_data' },
    { column: 'rank_sum', combine: 'sum', of: 'p.rank' },
    { column: 'rank_count', combine: 'count of values', of: 'p.rank' },
    ...PERCENTS.flatMap((c): Measure[] => [
      { column: weightedColumns(c).sum, combine: 'sum', of: `r.${c} * ${overrideWeightSql('r')}` },
      {
        column: weightedColumns(c).weight,
        combine: 'sum',
        of: overrideWeightSql('r'),
        filter: `r.${c} is not null`,
      },
    ]),
    { column: 'last_updated_at', combine: 'max', of: 'r.last_updated_at' },
    ...SUMMED.map((c): Measure => ({ column: c, combine: 'sum', of: `r.${c}::numeric` })),
    ...SUMMED.map((c): Measure => ({ column: `${c}_n`, combine: 'count of values', of: `r.${c}` })),
    ...ENSEMBLE_VALUES.map((v): Measure => ({
      column: v.column,
      combine: 'sum',
      of: ensembleValue('r', 'p', v.amount),
    })),
  ];

  const WEEK_TOTALS: GroupedTable = {
    name: 'demand_week_totals',
    source: RECORDS_OF_PRODUCTS,
    grain: [...SLICE.map((c) => ({ column: c, of: `p.${c}` })), { column: 'week_start', of: 'r.week_start' }],
    measures: WEEK_MEASURES,
    reads: [...SUMMED, ...PERCENTS, 'last_updated_at'],
    keptBy: 'demand_week_totals_on_records (records), demand_week_totals_*on_products (products)',
  };

  const PERIOD_GRAINS = (grains: readonly string[], alias = 'g') =>
    `(values ${grains.map((g) => `('${g}')`).join(', ')}) ${alias}(drill_down)`;

  const SLICE_TOTALS: GroupedTable = {
    name: 'demand_slice_totals',
    source: `demand_week_totals w cross join ${PERIOD_GRAINS(['none', 'monthly', 'quarterly', 'yearly'])}`,
    grain: [
      { column: 'drill_down', of: 'g.drill_down' },
      ...SLICE.map((c) => ({ column: c, of: `w.${c}` })),
      { column: 'period', of: periodSql('w.week_start', 'g.drill_down') },
    ],
    // Every week measure summed once more; the latest update is the latest of the weeks'.
    measures: WEEK_MEASURES.map((m): Measure =>
      m.combine === 'max'
        ? { column: m.column, combine: 'max', of: `w.${m.column}` }
        : {
            column: m.column,
            combine: 'sum',
            of: `w.${m.column}`,
            // A sum of counts is a count.
            ...(m.combine === 'count' || m.combine === 'count of values' ? { type: 'bigint' } : {}),
          },
    ),
    reads: WEEK_TOTALS.reads,
    keptBy: 'demand_slice_totals_on_week_totals (a generated trigger on demand_week_totals)',
    differences: {
      fn: 'demand_slice_totals_on_week_totals',
      trigger: 'demand_slice_totals',
      key: WEEK_TOTALS.grain.map((g) => g.column),
      rowCount: 'record_count',
    },
  };

  const bucketCount = (unit: string, dataOnly: boolean): Measure => ({
    column: `${unit}_${dataOnly ? 'data_' : ''}groups`,
    combine: 'distinct count',
    of: `date_trunc('${unit}', r.week_start)`,
    ...(dataOnly ? { filter: 'r.has_data' } : {}),
  });

  const PRODUCT_TOTALS: GroupedTable = {
    name: 'demand_product_totals',
    source: 'demand_records r',
    grain: [{ column: 'pid', of: 'r.pid' }],
    measures: [
      { column: 'record_count', combine: 'count', of: '*' },
      { column: 'data_count', combine: 'count', of: '*', filter: 'r.has_data' },
      ...['month', 'quarter', 'year'].flatMap((unit) => [bucketCount(unit, false), bucketCount(unit, true)]),
    ],
    reads: HAS_DATA_INPUTS,
    keptBy: 'demand_week_totals_on_records (records)',
  };

  const SLICE_PRODUCT_COUNTS: GroupedTable = {
    name: 'demand_slice_product_counts',
    source: 'demand_product_totals t join products p on p.pid = t.pid',
    grain: SLICE.map((c) => ({ column: c, of: `p.${c}` })),
    measures: [
      { column: 'products', combine: 'count', of: '*' },
      { column: 'data_products', combine: 'count', of: '*', filter: 't.data_count > 0' },
      ...PRODUCT_TOTALS.measures.map((m): Measure => ({
        column: m.column,
        combine: 'sum',
        of: `t.${m.column}`,
      })),
    ],
    reads: PRODUCT_TOTALS.reads,
    keptBy:
      'demand_slice_counts_on_product_totals (a generated trigger on demand_product_totals), products triggers',
    differences: {
      fn: 'demand_slice_counts_on_product_totals',
      trigger: 'demand_slice_counts',
      key: ['pid'],
    },
    // A slice whose last product left keeps a row of zeros: readers skip it.
    ignoredRows: 'products = 0',
  };

  const OVERRIDDEN_RECORDS: GroupedTable = {
    name: 'demand_overridden_records',
    source: 'demand_records r',
    where: overriddenSql('r'),
    grain: [
      { column: 'pid', of: 'r.pid' },
      { column: 'week_start', of: 'r.week_start' },
    ],
    measures: ['final_pln_rev_dlrs', 'ensemble_fcst_units', 'reason_code', 'last_updated_at'].map(
      (c): Measure => ({ column: c, combine: 'own', of: `r.${c}` }),
    ),
    reads: [...OVERRIDES, 'final_pln_rev_dlrs', 'ensemble_fcst_units', 'reason_code', 'last_updated_at'],
    recordsWith: OVERRIDES,
    keptBy: 'demand_overridden_records_on_records (a generated trigger on records)',
    differences: {
      fn: 'demand_overridden_records_on_records',
      trigger: 'demand_overridden_records',
      key: ['pid', 'week_start'],
    },
  };

  const PRODUCT_EXTREMES: RebuiltTable = {
    name: 'demand_product_extremes',
    source: 'demand_records r by product and drill-down (week, month, quarter, year, whole)',
    grain: ['pid', 'drill'],
    reads: [...SUMMED.filter((c) => !PUBLISHED.includes(c)), ...PERCENTS, 'last_updated_at'],
    keptBy: 'demand_product_extremes_on_records (records): refreshed, or marked stale when many',
    rebuild: 'select refresh_product_extremes(array(select pid from products))',
    // A stale product's row is out of date by design until the refresher (or a sort) refreshes it.
    ignoredRows: 'pid in (select pid from demand_product_extremes_stale)',
  };

  /** The accuracy sums: per lag and product, from the forecast snapshots and the actuals. */
  const accuracyTable = (name: string, grain: readonly string[]): RebuiltTable => ({
    name,
    source: 'forecast_snapshots ⨝ demand_records (actuals)',
    grain,
    reads: ['act_bkg_units'],
    // Pairs are of records with actuals only.
    recordsWith: ['act_bkg_units'],
    keptBy: 'accuracy_note_* (row) and accuracy_refresh_* (statement) on records',
    rebuild: 'select refresh_accuracy(array(select pid from products))',
  });

  /** In the order the records' triggers keep them (trigger names sort; cascades follow their source). */
  const KEPT_TABLES: readonly KeptTable[] = [
    accuracyTable('accuracy_sums', ['lag', 'pid', 'reason_code']),
    accuracyTable('accuracy_product_sums', ['lag', 'pid']),
    accuracyTable('exception_sums', ['lag', 'pid']),
    OVERRIDDEN_RECORDS,
    PRODUCT_EXTREMES,
    WEEK_TOTALS,
    SLICE_TOTALS,
    PRODUCT_TOTALS,
    SLICE_PRODUCT_COUNTS,
  ];

  return {
    WEEK_TOTALS,
    SLICE_TOTALS,
    PRODUCT_TOTALS,
    SLICE_PRODUCT_COUNTS,
    OVERRIDDEN_RECORDS,
    PRODUCT_EXTREMES,
    KEPT_TABLES,
  };
}

export const {
  WEEK_TOTALS,
  SLICE_TOTALS,
  PRODUCT_TOTALS,
  SLICE_PRODUCT_COUNTS,
  OVERRIDDEN_RECORDS,
  PRODUCT_EXTREMES,
  KEPT_TABLES,
} = readModelOf(DEMAND_RECORD_FIELDS);

/** A measure's aggregate over its key's source rows. */
export function aggregateSql(m: Measure): string {
  const filter = m.filter ? ` filter (where ${m.filter})` : '';
  switch (m.combine) {
    case 'count':
      return `count(${m.of})${filter}`;
    case 'distinct count':
      return `count(distinct ${m.of})${filter}`;
    case 'count of values':
      return `count(${m.of})${filter}`;
    case 'sum':
      return `coalesce(sum(${m.of})${filter}, 0)`;
    case 'max':
      return `max(${m.of})${filter}`;
    case 'min':
      return `min(${m.of})${filter}`;
    case 'own':
      return m.of;
  }
}

/** The table's columns: its grain, then its measures. */
export const columnsOf = (table: GroupedTable): string[] => [
  ...table.grain.map((g) => g.column),
  ...table.measures.map((m) => m.column),
];

/** The parts of a grouped table's rebuild query: its select list, source, condition and grouping. */
export function rowsParts(table: GroupedTable): {
  select: string;
  from: string;
  where: string;
  groupBy: string;
} {
  const own = table.measures.filter((m) => m.combine === 'own').map((m) => m.of);
  return {
    select: [
      ...table.grain.map((g) => `${g.of} as ${g.column}`),
      ...table.measures.map((m) => `${aggregateSql(m)} as ${m.column}`),
    ].join(',\n    '),
    from: table.source,
    where: table.where ?? 'true',
    groupBy: [...table.grain.map((g) => g.of), ...own].join(', '),
  };
}

/**
 * The rows a grouped table must hold, from its source, in `columnsOf` order. Only keys with source
 * rows appear: a table never keeps an empty key.
 */
export function rowsSql(table: GroupedTable): string {
  const { select, from, where, groupBy } = rowsParts(table);
  return `select ${select}\n  from ${from}\n  where ${where}\n  group by ${groupBy}`;
}

/** A table's name in the registry; throws for a name that is not a kept table. */
export function keptTable(name: string): KeptTable {
  const table = KEPT_TABLES.find((t) => t.name === name);
  if (!table) throw new Error(`${name} is not a kept table`);
  return table;
}
