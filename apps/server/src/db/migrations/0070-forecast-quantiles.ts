import { sql, type Kysely } from 'kysely';

/**
 * Each product's accuracy row keeps the ensemble's quantile forecasts of its first weeks
 * ({levels, mean, values: per level, per week}), which the inventory's order-up-to levels read
 * at their service levels. One JSON value per product, not a column per record and week: only
 * the next few weeks (a lead time and a review period) are ever read. Null for rows written
 * before it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_accuracy add column quantiles jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_accuracy drop column quantiles`.execute(db);
}
