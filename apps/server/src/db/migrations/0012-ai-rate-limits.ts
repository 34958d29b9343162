import { sql, type Kysely } from 'kysely';

/**
 * The AI assistant's per-user request counters, in the database so that a limit holds across
 * every server process behind a load balancer (a counter in memory would multiply it by their number).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table ai_rate_limits (
    user_id text not null,
    endpoint text not null,
    requests integer not null,
    window_ends_at timestamptz not null,
    primary key (user_id, endpoint))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists ai_rate_limits`.execute(db);
}
