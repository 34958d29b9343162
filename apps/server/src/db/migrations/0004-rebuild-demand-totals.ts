import { sql, type Kysely } from 'kysely';
import { addToTotals, refreshProductTotals, withProduct } from './0002-planning-grid';

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
