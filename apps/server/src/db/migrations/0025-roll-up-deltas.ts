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

/** The latest update cannot be taken back by subtraction: recompute it where it may have dropped. */
const recomputeLatest = (touched: string): string => `
  update demand_week_totals t set last_updated_at = (
    select max(r.last_updated_at) from demand_records r join products p on p.pid = r.pid
    where r.week_start = t.week_start and p.client_id = t.client_id and p.bu = t.bu
      and p.pf = t.pf and p.region = t.region)
  from (${touched}) k
  where (t.client_id, t.bu, t.pf, t.region, t.week_start) = (k.client_id, k.bu, k.pf, k.region, k.week_start)`;

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
 * The records' roll-up trigger (migrations 0002, 0005, 0011) in one pass per statement.
 *
 * Before, an update added every new row and took away every old one: a 5,000-record batch
 * aggregated 10,000 rows, and then three more statements joined the transition tables again to
 * find stamps that dropped and products whose data flag flipped, even when none did. A batch
 * save of 5,000 cells spent about half its time here.
 *
 * Now old and new rows are paired on the record key once. Each pair contributes the difference it
 * makes (new minus old: zero where a column did not change), the same pairs answer which follow-up
 * work is needed, and that work runs only when it is. An insert is a pair without an old row and a
 * delete one without a new row, so one statement serves all three events. Every sum is NUMERIC, so
 * adding differences gives exactly the totals that adding and subtracting whole rows gave.
 */

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
export type ExtraSum = { column: string; value: (r: string) => string };

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
export const rollUpFunction = (extra: readonly ExtraSum[] = []): string =>
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

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(rollUpFunction()).execute(db);
}

/**
 * Nothing to undo: the paired form computes the same totals as migration 0005's, and rolling back
 * migration 0002 drops the function.
 */
export async function down(): Promise<void> {}
