import { sql, type Kysely } from 'kysely';

/**
 * Named views of the demand planning grid, each user's own. A name is unique per user whatever
 * its case, so the Views menu never lists two entries that read alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table saved_views (
    id integer generated always as identity primary key,
    user_id text not null,
    name text not null check (char_length(name) between 1 and 60),
    state jsonb not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create unique index saved_views_user_name on saved_views (user_id, lower(name))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table saved_views`.execute(db);
}
