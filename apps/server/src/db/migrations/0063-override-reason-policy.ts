import { sql, type Kysely } from 'kysely';

/**
 * The planning policy an admin sets for everyone: whether an override must carry a reason code
 * (as SAP IBP and o9 allow). One row, off until an admin turns it on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table planning_policy (
    id boolean primary key default true check (id),
    require_override_reason boolean not null default false,
    updated_at timestamptz,
    updated_by text
  )`.execute(db);
  await sql`insert into planning_policy (id) values (true)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table planning_policy`.execute(db);
}
