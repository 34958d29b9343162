import { sql, type Kysely } from 'kysely';

// Copied from the migrations this one builds on, so it runs the same SQL whatever they become.

/** Summed record columns and their SQL type once summed (units as double precision become numeric). */
const SUMMED = [
  'act_bkg_units',
  'act_bkg_cost',
  'act_rev_dlrs',
  'naive_fcst_units',
  'ensemble_fcst_units',
  'rev_pln_ovrd_units',
  'prelim_pln_units',
  'prelim_pln_cost',
  'prelim_pln_rev_dlrs',
  'sop_pln_ovrd_units',
  'final_pln_units',
  'final_bk_pln_cost',
  'final_pln_rev_dlrs',
  'delta_prelim_to_final_pln_cost',
  'delta_prelim_to_final_pln_units',
  'delta_prelim_to_final_pln_rev_dlrs',
  'p1_pub_pln_units',
  'p1_pub_pln_cost',
  'p1_pub_pln_rev_dlrs',
  'p2_pub_pln_units',
  'p2_pub_pln_cost',
  'p2_pub_pln_rev_dlrs',
] as const;

const GROUP_KEY = ['client_id', 'bu', 'pf', 'region', 'week_start'] as const;

/** Override weight per record (spec §9): final planned units, else actual units, else 1. */
const WEIGHT = `(case when d.final_pln_units > 0 then d.final_pln_units::numeric
  when d.act_bkg_units > 0 then d.act_bkg_units::numeric else 1 end)`;

/**
 * Adds the rows of `source` (columns: sign, the record columns, client_id, bu, pf, region, rank)
 * to the totals: sign 1 adds a record, -1 takes it away. Rows are locked in key order, so
 * concurrent writers cannot deadlock on the totals.
 */
function addToTotals(source: string): string {
  const sums = SUMMED.map((c) => `coalesce(sum(d.sign * d.${c}::numeric), 0)`);
  const counts = SUMMED.map((c) => `coalesce(sum(d.sign) filter (where d.${c} is not null), 0)`);
  const columns = [
    ...GROUP_KEY,
    'record_count',
    'data_count',
    'rank_sum',
    'rank_count',
    'rev_pct_wsum',
    'rev_pct_weight',
    'sop_pct_wsum',
    'sop_pct_weight',
    'last_updated_at',
    ...SUMMED,
    ...SUMMED.map((c) => `${c}_n`),
  ];
  const additive = columns.filter(
    (c) => !(GROUP_KEY as readonly string[]).includes(c) && c !== 'last_updated_at',
  );
  return `
    insert into demand_week_totals as t (${columns.join(', ')})
    select d.client_id, d.bu, d.pf, d.region, d.week_start,
      sum(d.sign),
      coalesce(sum(d.sign) filter (where d.has_data), 0),
      coalesce(sum(d.sign * d.rank), 0),
      coalesce(sum(d.sign) filter (where d.rank is not null), 0),
      coalesce(sum(d.sign * d.rev_pln_ovrd_percent * ${WEIGHT}), 0),
      coalesce(sum(d.sign * ${WEIGHT}) filter (where d.rev_pln_ovrd_percent is not null), 0),
      coalesce(sum(d.sign * d.sop_pln_ovrd_percent * ${WEIGHT}), 0),
      coalesce(sum(d.sign * ${WEIGHT}) filter (where d.sop_pln_ovrd_percent is not null), 0),
      max(d.last_updated_at) filter (where d.sign > 0),
      ${[...sums, ...counts].join(',\n      ')}
    from (${source}) d
    group by d.client_id, d.bu, d.pf, d.region, d.week_start
    order by d.client_id, d.bu, d.pf, d.region, d.week_start
    on conflict (${GROUP_KEY.join(', ')}) do update set
      ${additive.map((c) => `${c} = t.${c} + excluded.${c}`).join(',\n      ')},
      last_updated_at = greatest(t.last_updated_at, excluded.last_updated_at)`;
}

const withProduct = (rows: string, sign: 1 | -1): string =>
  `select ${sign} as sign, r.*, p.client_id, p.bu, p.pf, p.region, p.rank
   from ${rows} r join products p on p.pid = r.pid`;

/**
 * Per product: how many records and time buckets it has, and how many of them hold data. The
 * grid pages product-level views by summing these counts instead of grouping millions of rows.
 */
const refreshProductTotals = (pids: string): string => `
  insert into demand_product_totals as t (pid, record_count, data_count, month_groups, month_data_groups,
    quarter_groups, quarter_data_groups, year_groups, year_data_groups)
  select n.pid, s.* from (select distinct pid from (${pids}) x order by pid) n
  cross join lateral (
    -- Per product through the primary key: a set-based join here would scan every record.
    select count(*) as record_count, count(*) filter (where r.has_data) as data_count,
      count(distinct date_trunc('month', r.week_start)),
      count(distinct date_trunc('month', r.week_start)) filter (where r.has_data),
      count(distinct date_trunc('quarter', r.week_start)),
      count(distinct date_trunc('quarter', r.week_start)) filter (where r.has_data),
      count(distinct date_trunc('year', r.week_start)),
      count(distinct date_trunc('year', r.week_start)) filter (where r.has_data)
    from demand_records r where r.pid = n.pid) s
  where s.record_count > 0
  on conflict (pid) do update set record_count = excluded.record_count, data_count = excluded.data_count,
    month_groups = excluded.month_groups, month_data_groups = excluded.month_data_groups,
    quarter_groups = excluded.quarter_groups, quarter_data_groups = excluded.quarter_data_groups,
    year_groups = excluded.year_groups, year_data_groups = excluded.year_data_groups;
  delete from demand_product_totals t
  where t.pid in (${pids}) and not exists (select 1 from demand_records r where r.pid = t.pid)`;

/** The latest update cannot be taken back by subtraction: recompute it where it may have dropped. */
const recomputeLatest = (touched: string): string => `
  update demand_week_totals t set last_updated_at = (
    select max(r.last_updated_at) from demand_records r join products p on p.pid = r.pid
    where r.week_start = t.week_start and p.client_id = t.client_id and p.bu = t.bu
      and p.pf = t.pf and p.region = t.region)
  from (${touched}) k
  where (t.client_id, t.bu, t.pf, t.region, t.week_start) = (k.client_id, k.bu, k.pf, k.region, k.week_start)`;

/** Override weight (spec §9) of a record row `r`: final units, else actual units, else 1. */
const weight = (r: string): string => `(case when ${r}.final_pln_units > 0 then ${r}.final_pln_units::numeric
  when ${r}.act_bkg_units > 0 then ${r}.act_bkg_units::numeric else 1 end)`;

/** What a weighted percent adds for one side of a pair: its weighted value and its weight. */
const weighted = (r: string, percent: string): [string, string] => [
  `coalesce(${r}.${percent} * ${weight(r)}, 0)`,
  `(case when ${r}.${percent} is not null then ${weight(r)} else 0 end)`,
];

/** `expression` of the new row minus that of the old row. */
const delta = (expression: (r: string) => string): string => `${expression('n')} - ${expression('o')}`;

/**
 * A further sum a later migration keeps in demand_week_totals: `value` of one side of a pair
 * (a record row `r`, its product `p`), never null.
 */
type ExtraSum = { column: string; value: (r: string) => string };

/**
 * One statement: pairs the rows of `oldRows` and `newRows` on the record key, adds each slice's
 * differences to demand_week_totals (rows locked in key order, so concurrent writers cannot
 * deadlock), and answers what else must follow: whether a record left (its slice may be empty
 * now), the keys whose latest stamp may have dropped, and the products whose counts changed.
 */
function applyChanges(oldRows: string, newRows: string, extra: readonly ExtraSum[]): string {
  const [revSum, revWeight] = [0, 1].map((i) => delta((r) => weighted(r, 'rev_pln_ovrd_percent')[i]!));
  const [sopSum, sopWeight] = [0, 1].map((i) => delta((r) => weighted(r, 'sop_pln_ovrd_percent')[i]!));
  const pairColumns = [
    `(n.pid is not null)::int - (o.pid is not null)::int as record_count`,
    `${delta((r) => `coalesce(${r}.has_data::int, 0)`)} as data_count`,
    `${revSum} as rev_pct_wsum`,
    `${revWeight} as rev_pct_weight`,
    `${sopSum} as sop_pct_wsum`,
    `${sopWeight} as sop_pct_weight`,
    ...SUMMED.map((c) => `${delta((r) => `coalesce(${r}.${c}::numeric, 0)`)} as ${c}`),
    ...SUMMED.map((c) => `${delta((r) => `(${r}.${c} is not null)::int`)} as ${c}_n`),
    ...extra.map((e) => `${delta(e.value)} as ${e.column}`),
  ];
  const summed = [
    'record_count',
    'data_count',
    'rev_pct_wsum',
    'rev_pct_weight',
    'sop_pct_wsum',
    'sop_pct_weight',
    ...SUMMED,
    ...SUMMED.map((c) => `${c}_n`),
    ...extra.map((e) => e.column),
  ];
  const key = GROUP_KEY.join(', ');
  return `
    with pairs as materialized (
      select p.client_id, p.bu, p.pf, p.region, coalesce(n.week_start, o.week_start) as week_start,
        coalesce(n.pid, o.pid) as pid, p.rank, n.last_updated_at as latest,
        o.last_updated_at is not null
          and (n.pid is null or n.last_updated_at is null or o.last_updated_at > n.last_updated_at) as dropped,
        o.pid is null or n.pid is null or o.has_data <> n.has_data as recount,
        ${pairColumns.join(',\n        ')}
      from ${oldRows} o full join ${newRows} n on n.pid = o.pid and n.week_start = o.week_start
      join products p on p.pid = coalesce(n.pid, o.pid)),
    applied as (
      insert into demand_week_totals as t (${key}, rank_sum, rank_count, last_updated_at, ${summed.join(', ')})
      select ${key}, coalesce(sum(record_count * rank), 0), coalesce(sum(record_count) filter (where rank is not null), 0),
        max(latest), ${summed.map((c) => `sum(${c})`).join(', ')}
      from pairs group by ${key} order by ${key}
      on conflict (${key}) do update set
        ${['rank_sum', 'rank_count', ...summed].map((c) => `${c} = t.${c} + excluded.${c}`).join(',\n        ')},
        last_updated_at = greatest(t.last_updated_at, excluded.last_updated_at))
    select coalesce(bool_or(record_count < 0), false),
      array_agg(pid) filter (where dropped), array_agg(week_start) filter (where dropped),
      array_agg(distinct pid) filter (where recount)
    from pairs`;
}

/** `statements` (separated by semicolons) as EXECUTEs with `using`: planned for the rows each call has. */
const run = (statements: string, using: string): string =>
  statements
    .split(';')
    .filter((statement) => statement.trim() !== '')
    .map((statement) => `execute $q$${statement}$q$ using ${using};`)
    .join('\n');

/** A typed empty copy of a transition table, for the side of a pair an event does not have. */
const none = (rows: string): string => `(select * from ${rows} where false)`;

/**
 * The roll-up trigger function, keeping `extra` sums besides migration 0002's (none here; a later
 * migration that adds sums redefines the function from this same text, so nothing else changes).
 * Statements run through EXECUTE, as since migration 0005: a plan cached for one call's row
 * count must never serve another's. The skip switch is migration 0011's (a publish moves whole
 * columns and applies the same move to the totals itself).
 */
const rollUpFunction = (extra: readonly ExtraSum[] = []): string =>
  `create or replace function demand_week_totals_on_records() returns trigger language plpgsql as $fn$
      declare
        removed boolean;
        dropped_pids text[];
        dropped_weeks date[];
        recount text[];
      begin
        if coalesce(current_setting('planning.skip_rollup', true), '') = 'on' then
          return null;
        end if;
        if tg_op = 'INSERT' then
          execute $q$${applyChanges(none('new_rows'), 'new_rows', extra)}$q$ into removed, dropped_pids, dropped_weeks, recount;
        elsif tg_op = 'UPDATE' then
          execute $q$${applyChanges('old_rows', 'new_rows', extra)}$q$ into removed, dropped_pids, dropped_weeks, recount;
        else
          execute $q$${applyChanges('old_rows', none('old_rows'), extra)}$q$ into removed, dropped_pids, dropped_weeks, recount;
        end if;
        if removed then
          execute $q$delete from demand_week_totals where record_count = 0$q$;
        end if;
        if dropped_pids is not null then
          ${run(
            recomputeLatest(`select distinct p.client_id, p.bu, p.pf, p.region, k.week_start
              from unnest($1::text[], $2::date[]) k(pid, week_start) join products p on p.pid = k.pid`),
            'dropped_pids, dropped_weeks',
          )}
        end if;
        if recount is not null then
          ${run(refreshProductTotals('select unnest($1::text[]) as pid'), 'recount')}
        end if;
        return null;
      end $fn$`;

/**
 * Pub Ensemble Forecast at list price in the week totals (docs/metrics.md "Data behind
 * the screens"): per BU × region × family slice and week, Σ over the records of
 * list_value(`Ensemble_Fcst_Units`, the product's unit price) and the same at its unit cost. A
 * record's value is rounded to the cent before summing, so a family's figure is exactly the sum of
 * its products' drill-down figures, which read the same function per record.
 *
 * Kept exact in the writing transaction by every path that writes records:
 * - the roll-up trigger (migration 0025's function, redefined from the same text with these sums);
 * - an import's new records, added from SKUs × shapes (imports.repository.ts) with the same function;
 * - a publish moves P1/P2 only, which these sums do not read: nothing to add;
 * - a product that changes slice, price or cost, or is deleted: its own trigger below, after
 *   migration 0002's slice rebuild (which knows only 0002's sums);
 * - rebuild_demand_totals() (the seed's bulk load, tests' reference), redefined to fill them too.
 */

/** A record's units valued at a unit amount (price or cost), to the cent; null without units. */
const LIST_VALUE = `create or replace function list_value(units double precision, amount numeric)
  returns numeric language sql immutable parallel safe
  as $$ select round((units * amount)::numeric, 2) $$`;

/** The kept sums and the product column each values the statistical forecast at. */
export const ENSEMBLE_VALUES = [
  { column: 'ensemble_fcst_rev_dlrs', amount: 'unit_price' },
  { column: 'ensemble_fcst_cost', amount: 'unit_cost' },
] as const;

/** What record row `record` of product row `product` adds to a kept sum (0 without a forecast). */
export const ensembleValue = (record: string, product: string, amount: string): string =>
  `coalesce(list_value(${record}.ensemble_fcst_units, ${product}.${amount}), 0)`;

/** The sums as the roll-up trigger adds them: its pairs join the product as `p`. */
const TRIGGER_SUMS: ExtraSum[] = ENSEMBLE_VALUES.map(({ column, amount }) => ({
  column,
  value: (r) => ensembleValue(r, 'p', amount),
}));

/** `alias`'s slice columns equal those of product row `row`. */
const inSlice = (alias: string, row: string): string =>
  `(${alias}.client_id, ${alias}.bu, ${alias}.pf, ${alias}.region) = (${row}.client_id, ${row}.bu, ${row}.pf, ${row}.region)`;

/**
 * Sets the kept sums of the week totals from the records: of every slice, or of the slice of
 * product row `row` (in the products' trigger). Rows whose records have no statistical forecast
 * keep what they hold, so callers start from 0. One grouped pass over the records, one UPDATE.
 */
const setFromRecords = (row?: 'old' | 'new'): string => `
  update demand_week_totals t set
    ${ENSEMBLE_VALUES.map(({ column }) => `${column} = v.${column}`).join(', ')}
  from (
    select p.client_id, p.bu, p.pf, p.region, r.week_start,
      ${ENSEMBLE_VALUES.map(({ column, amount }) => `sum(${ensembleValue('r', 'p', amount)}) as ${column}`).join(', ')}
    from demand_records r join products p on p.pid = r.pid
    where r.ensemble_fcst_units is not null${row ? ` and ${inSlice('p', row)}` : ''}
    group by 1, 2, 3, 4, 5) v
  where (t.client_id, t.bu, t.pf, t.region, t.week_start) = (v.client_id, v.bu, v.pf, v.region, v.week_start)`;

/** The sums of the slice of product row `row`, recomputed from its records. */
const refreshSlice = (row: 'old' | 'new'): string => `
  update demand_week_totals t set ${ENSEMBLE_VALUES.map(({ column }) => `${column} = 0`).join(', ')}
  where ${inSlice('t', row)};
  ${setFromRecords(row)};`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(LIST_VALUE).execute(db);
  // A constant default adds the columns without rewriting the table; the backfill then writes
  // only the rows that have a forecast, in one set-based statement.
  await sql
    .raw(
      `alter table demand_week_totals
        ${ENSEMBLE_VALUES.map(({ column }) => `add column ${column} numeric not null default 0`).join(', ')}`,
    )
    .execute(db);
  await sql.raw(setFromRecords()).execute(db);
  // The backfill wrote a new version of most rows, doubling the table's pages: rewrite the (small)
  // table in key order, so the worksheet's scan of a client's rows reads no more pages than before.
  await sql`cluster demand_week_totals using demand_week_totals_pkey`.execute(db);

  await sql.raw(rollUpFunction(TRIGGER_SUMS)).execute(db);

  await sql
    .raw(
      `create or replace function rebuild_demand_totals() returns void language plpgsql as $fn$
      begin
        truncate demand_week_totals, demand_product_totals;
        ${addToTotals(withProduct('demand_records', 1))};
        ${setFromRecords()};
        ${refreshProductTotals('select pid from products')};
      end $fn$`,
    )
    .execute(db);

  // Fires after migration 0002's product triggers (same events, names sort later), which rebuild
  // the slices a product left or joined without these sums.
  await sql
    .raw(
      `create function demand_week_totals_values_on_products() returns trigger language plpgsql as $fn$
      begin
        ${refreshSlice('old')}
        if tg_op = 'UPDATE' then ${refreshSlice('new')} end if;
        return null;
      end $fn$`,
    )
    .execute(db);
  await sql`create trigger demand_week_totals_product_value_update
    after update of client_id, bu, pf, region, unit_price, unit_cost on products for each row
    when ((old.client_id, old.bu, old.pf, old.region, old.unit_price, old.unit_cost)
      is distinct from (new.client_id, new.bu, new.pf, new.region, new.unit_price, new.unit_cost))
    execute function demand_week_totals_values_on_products()`.execute(db);
  await sql`create trigger demand_week_totals_product_value_delete after delete on products
    for each row execute function demand_week_totals_values_on_products()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists demand_week_totals_product_value_delete on products`.execute(db);
  await sql`drop trigger if exists demand_week_totals_product_value_update on products`.execute(db);
  await sql`drop function if exists demand_week_totals_values_on_products()`.execute(db);
  await sql.raw(rollUpFunction()).execute(db);
  await sql
    .raw(
      `create or replace function rebuild_demand_totals() returns void language plpgsql as $fn$
      begin
        truncate demand_week_totals, demand_product_totals;
        ${addToTotals(withProduct('demand_records', 1))};
        ${refreshProductTotals('select pid from products')};
      end $fn$`,
    )
    .execute(db);
  await sql
    .raw(
      `alter table demand_week_totals ${ENSEMBLE_VALUES.map(({ column }) => `drop column ${column}`).join(', ')}`,
    )
    .execute(db);
  await sql`drop function if exists list_value(double precision, numeric)`.execute(db);
}
