import { sql, type Kysely } from 'kysely';

/**
 * The rolling horizon's state: the week the plan was last rolled to (its records reach that week
 * plus the configured horizon). One row. A process that sees the week change claims the roll here
 * under the row lock (rolling_to, rolling_since) and commits, so a second process skips it instead
 * of doing the same work; a claim left by a process that died is taken over once it is stale. No
 * row yet (a database that predates the roll): the first roll fills the horizon from the current
 * week.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table plan_horizon (
    id boolean primary key default true check (id),
    last_rolled_week date not null,
    horizon_weeks integer not null check (horizon_weeks > 0),
    rolled_at timestamptz not null default now(),
    records_added integer not null default 0,
    rolling_to date,
    rolling_since timestamptz
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table plan_horizon`.execute(db);
}
