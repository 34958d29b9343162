import { sql, type Kysely } from 'kysely';

/**
 * Each product's accuracy row keeps the ensemble's members and weights
 * ([{model, window, weight}], window null = the whole history), so a planner can see why the
 * forecast is what it is. A small JSON array read with the row; rows from earlier runs get [].
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_accuracy add column members jsonb not null default '[]'::jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_accuracy drop column members`.execute(db);
}
