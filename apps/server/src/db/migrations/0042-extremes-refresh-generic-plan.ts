import { sql, type Kysely } from 'kysely';

/**
 * refresh_product_extremes (migrations 0032, 0040) keeps one generic plan per connection.
 *
 * A save of a few products refreshes their extremes in its own transaction (migration 0035), and
 * the function's statements were planned again on every call: PostgreSQL's plan cache found the
 * generic plan dearer than the custom ones and never kept it. Planning the insert of about a
 * hundred kept values cost more than running it for one product (about 2 of the 2.8 ms a
 * one-product refresh took on the default data set; 0.8 ms with the generic plan). Every call
 * takes the same path whatever the number of products, a lateral read of each product's records
 * by its primary-key range, so the generic plan is the custom plan without the planning.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter function refresh_product_extremes(text[]) set plan_cache_mode = force_generic_plan`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter function refresh_product_extremes(text[]) reset plan_cache_mode`.execute(db);
}
