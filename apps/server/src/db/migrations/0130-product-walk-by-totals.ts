import { sql, type Kysely } from 'kysely';

/**
 * A product-level grid page walks the products that have records, in PID order, through their
 * totals rows instead of through every product (migration 0036's products_pid_c): products
 * without records have no totals row and are never read. The run of groups with data walks the
 * products with data alone, through a partial index, so products whose records hold no data (a new
 * SKU's forecast, without price or actuals) are not read either. An import of 99,300 catalogue
 * SKUs whose PIDs sort before the others made every first page of a product-level view read and
 * pass over all of them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index demand_product_totals_pid_c on demand_product_totals (pid collate "C")`.execute(db);
  await sql`create index demand_product_totals_data_pid_c on demand_product_totals (pid collate "C")
    where data_count > 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists demand_product_totals_data_pid_c`.execute(db);
  await sql`drop index if exists demand_product_totals_pid_c`.execute(db);
}
