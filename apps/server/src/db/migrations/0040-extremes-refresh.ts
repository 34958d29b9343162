import { sql, type Kysely } from 'kysely';

// Copied from the migrations this one builds on, so it runs the same SQL whatever they become.

/** Summed record columns whose group sums are kept (demand_week_totals' minus P1/P2). */
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
] as const;

const PERCENTS = ['rev_pln_ovrd_percent', 'sop_pln_ovrd_percent'] as const;

const FIGURES = [...SUMMED, ...PERCENTS, 'last_updated_at'] as const;

/** Override weight (spec §9) of a record r: final units, else actual units, else 1. */
const WEIGHT = `(case when r.final_pln_units > 0 then r.final_pln_units::numeric
  when r.act_bkg_units > 0 then r.act_bkg_units::numeric else 1 end)`;

/** Each figure of a group of records r, unrounded (the grid rounds sums and percents to 2 places). */
const GROUP_FIGURES = [
  ...SUMMED.map((c) => `sum(r.${c}) as ${c}`),
  ...PERCENTS.map(
    (c) => `sum(r.${c} * r.weight) / nullif(sum(r.weight) filter (where r.${c} is not null), 0) as ${c}`,
  ),
  'max(r.last_updated_at) as last_updated_at',
];

/** A week's figures are its record's own values (a percent weighted by itself is itself). */
const WEEK_FIGURES = [
  ...SUMMED.map((c) => `r.${c}::numeric`),
  ...PERCENTS.map((c) => `r.${c}`),
  'r.last_updated_at',
];

/**
 * refresh_product_extremes(pids): recomputes the given products' rows from their records and drops
 * the rows of products that have none left (a product without records gets no row: the roll-up's
 * grand total would otherwise give it one, even while its deletion cascades to its records). Each product is aggregated on its own (a lateral over
 * its primary-key range), so memory stays small however many products are refreshed: its weeks
 * as they are, and its months, quarters, years and whole in one sorted pass (a roll-up, since a
 * month lies in one quarter and a quarter in one year), each value converted to numeric once.
 */
const REFRESH_0032 = `
  insert into demand_product_extremes as x (pid, drill, ${FIGURES.flatMap((c) => [`${c}_hi`, `${c}_lo`]).join(', ')})
  select k.pid, e.*
  from (select distinct pid from unnest(pids) as u(pid)
    where exists (select 1 from demand_records r where r.pid = u.pid) order by pid) k
  cross join lateral (
    select g.drill, ${FIGURES.map((c) => `max(g.${c}), min(g.${c})`).join(', ')}
    from (
      select 'w'::"char" as drill, ${WEEK_FIGURES.join(', ')}
      from demand_records r where r.pid = k.pid
      union all
      select (case when grouping(r.m) = 0 then 'm' when grouping(r.q) = 0 then 'q'
          when grouping(r.y) = 0 then 'y' else 'n' end)::"char",
        ${GROUP_FIGURES.join(', ')}
      from (
        select ${SUMMED.map((c) => `r.${c}::numeric as ${c}`).join(', ')}, ${PERCENTS.map((c) => `r.${c}`).join(', ')},
          r.last_updated_at, ${WEIGHT} as weight, date_trunc('year', r.week_start) as y,
          date_trunc('quarter', r.week_start) as q, date_trunc('month', r.week_start) as m
        from demand_records r where r.pid = k.pid) r
      group by rollup (r.y, r.q, r.m)) g
    group by g.drill) e
  on conflict (pid, drill) do update set
    ${FIGURES.flatMap((c) => [`${c}_hi = excluded.${c}_hi`, `${c}_lo = excluded.${c}_lo`]).join(',\n    ')};
  delete from demand_product_extremes x
  where x.pid = any(pids) and not exists (select 1 from demand_records r where r.pid = x.pid);`;

/**
 * refresh_product_extremes (migration 0032) recomputed with less work, and writing only what
 * changed:
 *
 * - A product's months are summed from its records once, and its quarters, years and whole from
 *   the months (a roll-up over ~36 month rows instead of every record entering four group states).
 *   The weeks' largest and smallest values are taken in each column's own type and converted to
 *   NUMERIC once (the conversion keeps order), instead of converting 156 values per figure.
 * - A row is written only when one of its values changed. A save moves few of a product's
 *   extremes: writing all five rows anyway cost a new row version each, and since migration 0038
 *   an entry in each of the table's bound indexes as well.
 *
 * Same values as 0032's (the percent of a group is its weighted sum over its weight either way;
 * NUMERIC sums are exact in any order). The statement keeps its `jit = off` (0035).
 */

const COLUMNS = FIGURES.flatMap((c) => [`${c}_hi`, `${c}_lo`]);

/** A product's months: each figure's sum, each percent's weighted sum and weight, the latest update. */
const MONTHS = `
  select date_trunc('year', r.week_start) as y, date_trunc('quarter', r.week_start) as q,
    date_trunc('month', r.week_start) as m,
    ${[
      ...SUMMED.map((c) => `sum(r.${c}::numeric) as ${c}`),
      ...PERCENTS.map(
        (c) =>
          `sum(r.${c} * ${WEIGHT}) as ${c}_ws, sum(${WEIGHT}) filter (where r.${c} is not null) as ${c}_w`,
      ),
      'max(r.last_updated_at) as last_updated_at',
    ].join(', ')}
  from demand_records r where r.pid = k.pid
  group by 1, 2, 3`;

/** Months, quarters, years and the whole from the months, each group's figures as 0032 had them. */
const GROUPS = `
  select (case when grouping(m.m) = 0 then 'm' when grouping(m.q) = 0 then 'q'
      when grouping(m.y) = 0 then 'y' else 'n' end)::"char" as drill,
    ${[
      ...SUMMED.map((c) => `sum(m.${c}) as ${c}`),
      ...PERCENTS.map((c) => `sum(m.${c}_ws) / nullif(sum(m.${c}_w), 0) as ${c}`),
      'max(m.last_updated_at) as last_updated_at',
    ].join(', ')}
  from (${MONTHS}) m
  group by rollup (m.y, m.q, m.m)`;

const WEEK_EXTREMES = [
  ...SUMMED.map((c) => `max(r.${c})::numeric, min(r.${c})::numeric`),
  ...PERCENTS.map((c) => `max(r.${c}), min(r.${c})`),
  'max(r.last_updated_at), min(r.last_updated_at)',
].join(', ');

const REFRESH = `
  insert into demand_product_extremes as x (pid, drill, ${COLUMNS.join(', ')})
  select k.pid, e.*
  from (select distinct pid from unnest(pids) as u(pid)
    where exists (select 1 from demand_records r where r.pid = u.pid) order by pid) k
  cross join lateral (
    select 'w'::"char" as drill, ${WEEK_EXTREMES}
    from demand_records r where r.pid = k.pid
    union all
    select g.drill, ${FIGURES.map((c) => `max(g.${c}), min(g.${c})`).join(', ')}
    from (${GROUPS}) g
    group by g.drill) e
  on conflict (pid, drill) do update set
    ${COLUMNS.map((c) => `${c} = excluded.${c}`).join(',\n    ')}
  where (${COLUMNS.map((c) => `x.${c}`).join(', ')})
    is distinct from (${COLUMNS.map((c) => `excluded.${c}`).join(', ')});
  delete from demand_product_extremes x
  where x.pid = any(pids) and not exists (select 1 from demand_records r where r.pid = x.pid);`;

const define = (body: string) =>
  sql.raw(`create or replace function refresh_product_extremes(pids text[]) returns void
    language plpgsql set jit = off as $fn$
    begin ${body}
    end $fn$`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await define(REFRESH).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await define(REFRESH_0032).execute(db);
}
