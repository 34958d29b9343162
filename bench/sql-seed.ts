import { addWeeks, toIsoDate, weekStartSunday } from '@ps/domain';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../apps/server/src/db/schema';
import type { SeedSummary } from '../apps/server/src/seed/seed-demo-data';

/**
 * A plan of `products` × `weeks` records written by PostgreSQL itself (generate_series), for the
 * benches whose figure depends on the records' count and keys rather than on the demo's figures:
 * the demo seed computes every product-week in Node and takes many minutes at 20,000 × 156.
 * Each product has records from `weeks − futureWeeks` weeks before the anchor's week to
 * `futureWeeks − 1` after it: actuals in the past, a forecast and its plan in every week. The
 * records' kept tables are rebuilt once after the load, and the plan counts as rolled to the
 * anchor's week. Nothing else of the demo (snapshots, overrides, notes, inventory) is written.
 */
export async function seedPlanInSql(
  db: Kysely<Database>,
  size: { products: number; weeks: number; futureWeeks: number; anchor: Date },
): Promise<SeedSummary> {
  const started = performance.now();
  const anchor = weekStartSunday(size.anchor);
  const first = toIsoDate(addWeeks(anchor, size.futureWeeks - size.weeks));
  const current = toIsoDate(anchor);
  await db.transaction().execute(async (trx) => {
    await sql`set local statement_timeout = 0`.execute(trx);
    await sql`insert into products (pid, client_id, bu, pf, class, region, site, entity_type, unit_cost, unit_price)
      select 'SQL-' || lpad(i::text, 6, '0'), case when i % 4 = 0 then 'customer' else 'internal' end,
        'Unit ' || (i % 6), 'Family ' || (i % 40), 'A', 'Region ' || (i % 3), 'Site', 'Purchased',
        10 + i % 90, 20 + i % 150
      from generate_series(1, ${size.products}) i`.execute(trx);
    // The records' kept-table triggers stand aside (migration 0057's switch); rebuilt below.
    await sql`select set_config('planning.bulk_write', 'on', true)`.execute(trx);
    await sql`insert into demand_records (pid, week_start, act_bkg_units, act_rev_dlrs, act_bkg_cost,
        naive_fcst_units, ensemble_fcst_units, prelim_pln_units, final_pln_units, final_pln_rev_dlrs,
        final_bk_pln_cost)
      select p.pid, w.week::date, a.units, a.units * p.unit_price, a.units * p.unit_cost,
        f.units, f.units, f.units, f.units, f.units * p.unit_price, f.units * p.unit_cost
      from products p
      cross join generate_series(${first}::date, ${first}::date + 7 * (${size.weeks} - 1), interval '7 days') w(week)
      cross join lateral (select (hashtext(p.pid || w.week) & 127) as units) h
      cross join lateral (select case when w.week < ${current}::date then h.units end as units) a
      cross join lateral (select h.units + 3 as units) f
      order by p.pid, w.week`.execute(trx);
    await sql`select set_config('planning.bulk_write', 'off', true)`.execute(trx);
    await sql`select rebuild_demand_totals()`.execute(trx);
    await sql`select refresh_product_extremes(array(select pid from products))`.execute(trx);
    await sql`select rebuild_demand_overridden_records()`.execute(trx);
    await sql`insert into plan_horizon (last_rolled_week, horizon_weeks) values (${current}::date, ${size.futureWeeks})
      on conflict (id) do update set last_rolled_week = excluded.last_rolled_week,
        horizon_weeks = excluded.horizon_weeks`.execute(trx);
  });
  return {
    products: size.products,
    records: size.products * size.weeks,
    historyRows: 0,
    seconds: (performance.now() - started) / 1000,
  };
}
