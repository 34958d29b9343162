import {
  SUMMED_FIELDS,
  UNASSIGNED,
  fieldSpecOf,
  UNCATEGORIZED,
  type ClientId,
  type DrillDown,
  type SummedField,
  type ViewLevel,
  type WeekRange,
} from '@ps/domain';
import { sql, type RawBuilder } from 'kysely';
import { overrideWeightSql } from '../../read-model';

/**
 * The SQL side of the roll-up rules (packages/domain/src/rollup holds the pure reference; the
 * API tests compare the two). Each rule is one fragment here, used by every query that needs it.
 */

/** Record column behind each summed API field (the field catalogue's). */
export const SUMMED_COLUMNS = Object.fromEntries(
  SUMMED_FIELDS.map((field) => [field, fieldSpecOf(field)!.column!]),
) as Record<SummedField, string>;

const col = (alias: string, column: string): RawBuilder<unknown> => sql.raw(`${alias}.${column}`);

/** Blank family → Uncategorized, blank business unit → Unassigned (rules.ts: familyOrFallback …). */
export const familyName = (alias: string): RawBuilder<string> =>
  sql<string>`(case when btrim(${col(alias, 'pf')}) = '' then ${UNCATEGORIZED}::text else ${col(alias, 'pf')} end)`;
export const businessUnitName = (alias: string): RawBuilder<string> =>
  sql<string>`(case when btrim(${col(alias, 'bu')}) = '' then ${UNASSIGNED}::text else ${col(alias, 'bu')} end)`;

/** The attribute a view level groups by (roll-up.ts: groupNameOf); `alias` carries pid/pf/bu. */
export function groupName(viewLevel: ViewLevel, alias: string): RawBuilder<string> {
  switch (viewLevel) {
    case 'none':
    case 'sku':
      return sql<string>`${col(alias, 'pid')}`;
    case 'category':
      return familyName(alias);
    case 'business_unit':
      return businessUnitName(alias);
  }
}

/**
 * Time bucket key (time-buckets.ts: periodKeyOf) of `start`, a week or any moment of its month,
 * quarter or year (see periodStart); '' when there is no drill-down.
 */
export function periodKey(drillDown: DrillDown, start: RawBuilder<unknown>): RawBuilder<string> {
  switch (drillDown) {
    case 'none':
      return sql<string>`''::text`;
    case 'weekly':
      return sql<string>`to_char(${start}, 'YYYY-MM-DD')`;
    case 'monthly':
      return sql<string>`to_char(${start}, 'YYYY-MM')`;
    case 'quarterly':
      return sql<string>`to_char(${start}, 'YYYY-"Q"Q')`;
    case 'yearly':
      return sql<string>`to_char(${start}, 'YYYY')`;
  }
}

/**
 * A week's period as a group key that costs little to compute: the week itself, or the start of
 * its month, quarter or year as a timestamp without time zone. Grouping by it and formatting each
 * group's key once (periodKey) gives the groups periodKey of every week gives: to_char costs about three times a
 * plain date's text and ran once per record (5,200 on a product page) or per slice-week (4,524
 * twice on a weekly family page) where a page needs a hundred.
 */
export function periodStart(drillDown: DrillDown, weekStart: RawBuilder<unknown>): RawBuilder<unknown> {
  switch (drillDown) {
    case 'none':
      return sql`''::text`;
    case 'weekly':
      return weekStart;
    case 'monthly':
      return sql`date_trunc('month', ${weekStart}::timestamp)`;
    case 'quarterly':
      return sql`date_trunc('quarter', ${weekStart}::timestamp)`;
    case 'yearly':
      return sql`date_trunc('year', ${weekStart}::timestamp)`;
  }
}

/**
 * The weeks a period key (periodKey's text) holds, as the first date in it and the first date
 * after it: a record is in the period when its week starts in [from, to). Null without a
 * drill-down, where one period holds every week.
 */
export function periodSpan(
  drillDown: DrillDown,
  key: RawBuilder<unknown>,
): { from: RawBuilder<unknown>; to: RawBuilder<unknown> } | null {
  const span = (from: RawBuilder<unknown>, length: string) => ({
    from,
    to: sql`(${from} + interval '${sql.raw(length)}')::date`,
  });
  switch (drillDown) {
    case 'none':
      return null;
    case 'weekly':
      return span(sql`${key}::date`, '1 day');
    case 'monthly':
      return span(sql`to_date(${key}, 'YYYY-MM')`, '1 month');
    case 'quarterly':
      // to_date reads no quarter: the quarter's first month from the key's digit after 'Q'.
      return span(sql`make_date(left(${key}, 4)::int, right(${key}, 1)::int * 3 - 2, 1)`, '3 months');
    case 'yearly':
      return span(sql`make_date(${key}::int, 1, 1)`, '1 year');
  }
}

/** Override weight of a record (rules.ts: OVERRIDE_WEIGHT_FIELDS, emitted by the read model). */
export const overrideWeight = (r: string): RawBuilder<number> => sql.raw<number>(overrideWeightSql(r));

export type GridFilters = {
  clientIds: readonly ClientId[];
  bu?: string[] | undefined;
  pf?: string[] | undefined;
  region?: string[] | undefined;
  /** Case-insensitive text in PID, business unit, family, class, region or site. */
  search?: string | undefined;
  /** The weeks the view covers (grid-period.ts); absent or open on both sides: every week. */
  weeks?: WeekRange | undefined;
};

/**
 * The view's weeks over a week column (`r.week_start`, `t.week_start`), as ` and …` to follow
 * another condition; empty for every week. A range on the records' key column, so that the
 * records of the products a page reads are found by their key, not filtered after.
 */
export function weekFilter(filters: Pick<GridFilters, 'weeks'>, column: string): RawBuilder<unknown> {
  const from = filters.weeks?.from ?? null;
  const to = filters.weeks?.to ?? null;
  const week = sql.raw(column);
  return sql`${from === null ? sql`` : sql` and ${week} >= ${from}::date`}${
    to === null ? sql`` : sql` and ${week} <= ${to}::date`
  }`;
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The filter bar over a row that carries client_id, bu, pf and region (a product or a totals row).
 * Filter values name groups as the grid shows them, so 'Unassigned' selects blank business units.
 */
export function attributeFilter(filters: GridFilters, alias: string): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [
    sql`${col(alias, 'client_id')} = any(${[...filters.clientIds]}::text[])`,
  ];
  if (filters.bu?.length) parts.push(sql`${businessUnitName(alias)} = any(${filters.bu}::text[])`);
  if (filters.pf?.length) parts.push(sql`${familyName(alias)} = any(${filters.pf}::text[])`);
  if (filters.region?.length) parts.push(sql`${col(alias, 'region')} = any(${filters.region}::text[])`);
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** attributeFilter plus the search box, over products (alias p). */
export function productFilter(filters: GridFilters, p = 'p'): RawBuilder<boolean> {
  if (!filters.search) return attributeFilter(filters, p);
  const pattern = `%${escapeLike(filters.search)}%`;
  const columns = ['pid', 'bu', 'pf', 'class', 'region', 'site'].map(
    (c) => sql`${col(p, c)} ilike ${pattern}`,
  );
  return sql<boolean>`(${attributeFilter(filters, p)} and (${sql.join(columns, sql` or `)}))`;
}

/** A weighted override percent of a group of records r (rules.ts: weightedPercent). */
const weightedPercent = (column: string) =>
  sql`round(sum(${col('r', column)} * ${overrideWeight('r')})
      / nullif(sum(${overrideWeight('r')}) filter (where ${col('r', column)} is not null), 0), 2)`;

/**
 * A summed field over records r, exact: floats are summed as NUMERIC (a float sum would round
 * differently from the totals tables' NUMERIC sums), whole numbers in integers and converted once
 * (the same sum without converting every record: a product page sums some twenty columns of
 * 5,200 records).
 */
function recordSum(field: SummedField): RawBuilder<unknown> {
  const column = col('r', SUMMED_COLUMNS[field]);
  return fieldSpecOf(field)!.sqlType === 'int4'
    ? sql`round(sum(${column})::numeric, 2)`
    : sql`round(sum(${column}::numeric), 2)`;
}

/**
 * Each figure of a roll-up over records r joined to products p, by its API name (a group's first
 * family and business unit, and the business unit all its records share, by their row names).
 */
const RECORD_FIGURES: Record<string, RawBuilder<unknown>> = {
  recordCount: sql`count(*)::int`,
  ...Object.fromEntries(SUMMED_FIELDS.map((field) => [field, recordSum(field)])),
  Rev_Pln_Ovrd_Percent: weightedPercent('rev_pln_ovrd_percent'),
  SOP_Pln_Ovrd_Percent: weightedPercent('sop_pln_ovrd_percent'),
  Rank: sql`round(avg(p.rank))::int`,
  last_updated_at: sql`max(r.last_updated_at)`,
  firstPF: sql`min(${familyName('p')})`,
  firstBU: sql`min(${businessUnitName('p')})`,
  commonBU: sql`case when min(${businessUnitName('p')}) = max(${businessUnitName('p')}) then min(${businessUnitName('p')}) end`,
};

/**
 * The one aggregate a roll-up sorted by `field` is ordered by, named as the field; null for the
 * group keys (PID, PF, BU, periodLabel), which need none.
 */
export function recordFigure(field: string): RawBuilder<unknown> | null {
  const figure = RECORD_FIGURES[field];
  return figure ? sql`${figure} as ${sql.id(field)}` : null;
}

/** Every figure and the data flag of a group of records r joined to products p. */
export function recordAggregates(): RawBuilder<unknown> {
  return sql.join([
    ...Object.keys(RECORD_FIGURES).map((field) => recordFigure(field)!),
    sql`bool_or(r.has_data) as "hasData"`,
  ]);
}

/** The same figures over demand_week_totals rows t, which hold per-slice partial sums. */
const TOTALS_FIGURES: Record<string, RawBuilder<unknown>> = {
  recordCount: sql`sum(t.record_count)::int`,
  ...Object.fromEntries(
    SUMMED_FIELDS.map((field) => {
      const column = SUMMED_COLUMNS[field];
      return [
        field,
        sql`case when sum(${col('t', `${column}_n`)}) > 0 then round(sum(${col('t', column)}), 2) end`,
      ];
    }),
  ),
  Rev_Pln_Ovrd_Percent: sql`round(sum(t.rev_pct_wsum) / nullif(sum(t.rev_pct_weight), 0), 2)`,
  SOP_Pln_Ovrd_Percent: sql`round(sum(t.sop_pct_wsum) / nullif(sum(t.sop_pct_weight), 0), 2)`,
  Rank: sql`round(sum(t.rank_sum)::numeric / nullif(sum(t.rank_count), 0))::int`,
  last_updated_at: sql`max(t.last_updated_at)`,
  firstPF: sql`min(${familyName('t')})`,
  firstBU: sql`min(${businessUnitName('t')})`,
  commonBU: sql`case when min(${businessUnitName('t')}) = max(${businessUnitName('t')}) then min(${businessUnitName('t')}) end`,
};

/** The one aggregate over totals rows t that a roll-up sorted by `field` is ordered by, or null for a group key. */
export function totalsFigure(field: string): RawBuilder<unknown> | null {
  const figure = TOTALS_FIGURES[field];
  return figure ? sql`${figure} as ${sql.id(field)}` : null;
}

/** The same aggregates over demand_week_totals rows t. */
export function totalsAggregates(): RawBuilder<unknown> {
  return sql.join([
    ...Object.keys(TOTALS_FIGURES).map((field) => totalsFigure(field)!),
    sql`sum(t.data_count) > 0 as "hasData"`,
  ]);
}
