import { sql, type Kysely } from 'kysely';

/**
 * The safety stock of the recommended order-up-to level, and what the normal approximation of
 * the forecast error (z·σ, σ the RMS error) would have set, so the page can show the difference
 * the forecast quantiles make. Null until the next recompute.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inventory_parameters
    add column safety_stock_units double precision,
    add column safety_stock_normal_units double precision`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inventory_parameters
    drop column safety_stock_units,
    drop column safety_stock_normal_units`.execute(db);
}
