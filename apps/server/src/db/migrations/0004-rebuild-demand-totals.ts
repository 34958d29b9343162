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

/**
 * rebuild_demand_totals(): recomputes the roll-up totals of migration 0002 from the records.
 * Bulk loads (the demo seed) insert with the row trigger off and call this once at the end,
 * which is several times faster than maintaining the totals statement by statement.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create function rebuild_demand_totals() returns void language plpgsql as $fn$
      begin
        truncate demand_week_totals, demand_product_totals;
        ${addToTotals(withProduct('demand_records', 1))};
        ${refreshProductTotals('select pid from products')};
      end $fn$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists rebuild_demand_totals()`.execute(db);
}
