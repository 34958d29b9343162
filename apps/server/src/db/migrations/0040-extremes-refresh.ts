import { sql, type Kysely } from 'kysely';
import { FIGURES, PERCENTS, REFRESH as REFRESH_0032, SUMMED, WEIGHT } from './0032-product-sort-extremes';

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
