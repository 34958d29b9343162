import { sql, type Kysely } from 'kysely';

/**
 * Plan cycles: a plan version gets the label its publisher gave it and its totals by
 * fiscal quarter, a small JSON array ([{quarter, units, cost, revenue}]) read with the version: the
 * dashboard's publish values are the current quarter's revenue of the two latest versions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table plan_versions
    add column label text not null default '',
    add column quarters jsonb not null default '[]'::jsonb`.execute(db);
  await sql`update plan_versions set label = cycle where label = ''`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table plan_versions drop column label, drop column quarters`.execute(db);
}
