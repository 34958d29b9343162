import { sql, type Kysely } from 'kysely';

/**
 * Overridden records as a table of their keys, kept by statement triggers, in place of the partial
 * index demand_records_overridden (migration 0002).
 *
 * The index's predicate names the four override columns, and PostgreSQL updates a row in place
 * (HOT: no new entry in any index) only when no column an index uses, its predicate included,
 * changes. Every planner's save changes an override, so no save was ever HOT (0 of 16,048 updated
 * records on the kept 20,000 × 156 schema): each updated record got a new entry in all seven
 * indexes of demand_records. Without the index, a 4,012-record spread dirtied 109 pages instead of
 * 6,997 and wrote half the WAL, and the update's CPU fell by about a fifth.
 *
 * demand_overridden_records holds the key of each record with any override set: the summary's
 * figures and the AI assistant's override list read it as they read the index. A statement trigger
 * per event keeps it, from the transition tables' overridden rows only (a few per cent of a
 * statement's rows): an update removes the keys that are no longer overridden and adds the new
 * ones (a record moved to another week is a key gone and a key come). A publish's P1/P2 shift
 * (the only update that runs with `planning.skip_rollup` on) changes no override and is skipped;
 * an import's new SKUs, inserted with the switch on, are not. TRUNCATE empties it; the demo seed
 * turns the insert trigger off during its load and rebuilds the table once.
 */

/** A record with any override set (a row of demand_records or of a transition table). */
export const OVERRIDDEN = `(rev_pln_ovrd_percent is not null or rev_pln_ovrd_units is not null
  or sop_pln_ovrd_percent is not null or sop_pln_ovrd_units is not null)`;

/** The keys of the overridden rows of `rows`. */
export const keysOf = (rows: string) => `select pid, week_start from ${rows} where ${OVERRIDDEN}`;

/** rebuild_demand_overridden_records as this migration defines it: the keys alone. */
export const REBUILD_KEYS = `create or replace function rebuild_demand_overridden_records() returns void language plpgsql as $fn$
      begin
        delete from demand_overridden_records;
        insert into demand_overridden_records (pid, week_start) ${keysOf('demand_records')};
      end $fn$`;

/** demand_overridden_records_on_records as this migration defines it: the keys alone. */
export const KEEP_KEYS = `create or replace function demand_overridden_records_on_records() returns trigger language plpgsql as $fn$
      begin
        -- EXECUTE plans each statement for the rows this call has (migration 0005: a static
        -- statement keeps the plan of its first call on the connection, whatever came after).
        if tg_op = 'INSERT' then
          execute $q$insert into demand_overridden_records (pid, week_start) ${keysOf('new_rows')}
            on conflict do nothing$q$;
        elsif tg_op = 'DELETE' then
          execute $q$delete from demand_overridden_records d using (${keysOf('old_rows')}) o
            where d.pid = o.pid and d.week_start = o.week_start$q$;
        elsif coalesce(current_setting('planning.skip_rollup', true), '') <> 'on' then
          execute $q$delete from demand_overridden_records d
            using (${keysOf('old_rows')} except ${keysOf('new_rows')}) o
            where d.pid = o.pid and d.week_start = o.week_start$q$;
          execute $q$insert into demand_overridden_records (pid, week_start)
            ${keysOf('new_rows')} except ${keysOf('old_rows')}
            on conflict do nothing$q$;
        end if;
        return null;
      end $fn$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table demand_overridden_records (
    pid text not null,
    week_start date not null,
    primary key (pid, week_start))`.execute(db);
  await sql.raw(REBUILD_KEYS).execute(db);
  await sql.raw(KEEP_KEYS).execute(db);
  for (const [event, referencing] of [
    ['insert', 'new table as new_rows'],
    ['update', 'old table as old_rows new table as new_rows'],
    ['delete', 'old table as old_rows'],
  ] as const) {
    await sql
      .raw(
        `create trigger demand_overridden_records_${event} after ${event} on demand_records
         referencing ${referencing} for each statement execute function demand_overridden_records_on_records()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create function demand_overridden_records_on_truncate() returns trigger language plpgsql as $fn$
      begin truncate demand_overridden_records; return null; end $fn$`,
    )
    .execute(db);
  await sql`create trigger demand_overridden_records_truncate after truncate on demand_records
    for each statement execute function demand_overridden_records_on_truncate()`.execute(db);
  await sql`select rebuild_demand_overridden_records()`.execute(db);
  await sql`drop index if exists demand_records_overridden`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create index if not exists demand_records_overridden on demand_records (pid, week_start)
      where ${OVERRIDDEN}`,
    )
    .execute(db);
  for (const event of ['insert', 'update', 'delete', 'truncate']) {
    await sql.raw(`drop trigger if exists demand_overridden_records_${event} on demand_records`).execute(db);
  }
  await sql`drop function if exists demand_overridden_records_on_truncate()`.execute(db);
  await sql`drop function if exists demand_overridden_records_on_records()`.execute(db);
  await sql`drop function if exists rebuild_demand_overridden_records()`.execute(db);
  await sql`drop table if exists demand_overridden_records`.execute(db);
}
