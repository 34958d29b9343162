import { sql, type Kysely } from 'kysely';

/**
 * Secrets the server generates for itself (the page-token MAC key), kept in the database so that
 * every process behind a load balancer uses the same value and a restart keeps tokens valid.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app_secrets (
    name text primary key,
    value text not null,
    created_at timestamptz not null default now())`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists app_secrets`.execute(db);
}
